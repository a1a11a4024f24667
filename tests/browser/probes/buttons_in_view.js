(root) => {
  root.scrollIntoView({ block: 'start' });
  const scroller = root.closest('.jp-WindowedPanel-outer, .jp-Notebook, .jp-NotebookPanel-notebook')
    || document.scrollingElement;
  const area = scroller.getBoundingClientRect();
  const top = Math.max(0, area.top), bottom = Math.min(window.innerHeight, area.bottom);
  const left = Math.max(0, area.left), right = Math.min(window.innerWidth, area.right);
  const out = [];
  const buttons = [...root.querySelectorAll('[data-ugw=actions] button, [data-ugw=actions] input')];
  for (const b of buttons) {
    const r = b.getBoundingClientRect();
    if (!r.width) continue;
    out.push({ what: b.dataset.ugwAction || b.dataset.ugw || b.tagName, top: r.top, bottom: r.bottom,
               left: r.left, right: r.right,
               inside: r.top >= top - 1 && r.bottom <= bottom + 1 && r.left >= left - 1 && r.right <= right + 1 });
  }
  const board = root.querySelector('div[data-ugw=board]').getBoundingClientRect();
  return { buttons: out, view: { top, bottom, left, right }, rootWidth: root.getBoundingClientRect().width,
           board: { top: board.top, bottom: board.bottom, width: board.width, height: board.height },
           horizontalScroll: root.scrollWidth - root.clientWidth };
}
