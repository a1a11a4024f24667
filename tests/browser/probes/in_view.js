(root, selectors) => {
  const scroller = root.closest('.jp-WindowedPanel-outer, .jp-Notebook, .jp-NotebookPanel-notebook') || document.scrollingElement;
  const a = scroller.getBoundingClientRect();
  const top = Math.max(0, a.top), bottom = Math.min(window.innerHeight, a.bottom);
  const left = Math.max(0, a.left), right = Math.min(window.innerWidth, a.right);
  const out = {};
  for (const sel of selectors) {
    out[sel] = [...root.querySelectorAll(sel)].filter((e) => e.getClientRects().length).map((e) => {
      const r = e.getBoundingClientRect();
      return { text: e.textContent.trim().slice(0, 40), inside: r.top >= top - 1 && r.bottom <= bottom + 1 && r.left >= left - 1 && r.right <= right + 1,
        visible: Math.max(0, Math.min(r.bottom, bottom) - Math.max(r.top, top)) };
    });
  }
  return out;
}
