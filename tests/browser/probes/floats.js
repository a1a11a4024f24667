(root) => {
  const box = (e) => e.getBoundingClientRect();
  const hit = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5
    && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
  const floats = [...root.querySelectorAll('[data-ugw^=money-float-]')].filter((f) => box(f).width > 0);
  const title = box(root.querySelector('[data-ugw=title]'));
  const chips = [...root.querySelectorAll('[data-ugw=players] .ugw-chip, [data-ugw=players] .ugw-strip-amount')];
  return floats.map((f) => ({ who: f.dataset.ugw, text: f.textContent, title: hit(box(f), title),
    chips: chips.filter((c) => hit(box(f), box(c))).length }));
}
