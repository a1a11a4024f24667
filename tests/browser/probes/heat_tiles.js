(root) => [...root.querySelectorAll('[data-ugw-tile].ugw-kind-street')].map((tile) => {
  const heat = tile.querySelector('[data-ugw=heat-cell]');
  const band = tile.querySelector('.ugw-band:not(.ugw-band-empty)');
  const hb = heat.getBoundingClientRect();
  const bb = band ? band.getBoundingClientRect() : null;
  let onTop = true;
  if (bb) {
    const e = document.elementFromPoint(bb.left + bb.width / 2, bb.top + bb.height / 2);
    onTop = !!(e && e.closest('.ugw-band'));
  }
  const overlap = bb ? Math.max(0, Math.min(hb.right, bb.right) - Math.max(hb.left, bb.left))
    * Math.max(0, Math.min(hb.bottom, bb.bottom) - Math.max(hb.top, bb.top)) : 0;
  const name = tile.querySelector('.ugw-tile-name');
  return { pos: Number(tile.dataset.ugwTile), fill: getComputedStyle(heat).backgroundColor,
    band: bb ? getComputedStyle(band).backgroundColor : null, bandOnTop: onTop, bandArea: bb ? bb.width * bb.height : 0,
    overlap, ink: getComputedStyle(name).color,
    ownerOpacity: parseFloat(getComputedStyle(tile, '::before').opacity) };
})
