(t) => {
  const b = t.getBoundingClientRect();
  return [...t.querySelectorAll('.ugw-house')].filter((hs) => {
    const r = hs.getBoundingClientRect();
    return r.left < b.left || r.right > b.right || r.top < b.top || r.bottom > b.bottom;
  }).length;
}
