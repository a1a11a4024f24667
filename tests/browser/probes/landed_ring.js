(t) => {
  const cs = getComputedStyle(t);
  const p = t.querySelector('.ugw-tile-price');
  const r = p.getBoundingClientRect();
  const e = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  const inner = getComputedStyle(t.querySelector('.ugw-ring')).boxShadow;
  return {
    landed: t.classList.contains('ugw-landed'), width: parseFloat(cs.outlineWidth),
    offset: parseFloat(cs.outlineOffset), colour: cs.outlineColor,
    price: !!(e && e.closest('.ugw-tile-price')), hit: e && e.className, inner,
  };
}
