(root) => {
  const px = (el) => parseFloat(getComputedStyle(el).fontSize);
  const med = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[Math.floor(s.length / 2)] : null; };
  const all = (sel) => [...root.querySelectorAll(sel)].filter((e) => e.getClientRects().length);
  const board = root.querySelector('div[data-ugw=board]').getBoundingClientRect();
  const tok = all('[data-ugw-token] svg').map((s) => s.getBoundingClientRect().width);
  const house = all('.ugw-house').map((s) => s.getBoundingClientRect().width);
  const decision = root.querySelector('[data-ugw=decision]');
  return {
    side: board.width, names: med(all('.ugw-tile-name').map(px)), prices: med(all('.ugw-tile-price').map(px)),
    labels: med(all('[data-ugw=heat-label]').map(px)), legend: (() => { const m = root.querySelector('[data-ugw=heat-min]'); return m && m.getClientRects().length ? px(m) : null; })(),
    tokens: med(tok), houses: med(house), decision: decision ? px(decision) : null,
    side_panel: px(root.querySelector('[data-ugw=side-tabs]')),
  };
}
