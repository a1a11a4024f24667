(root) => {
  const out = [];
  for (const svg of root.querySelectorAll('svg.ugw-chart')) {
    const s = svg.getBoundingClientRect();
    if (!s.width) continue;
    for (const t of svg.querySelectorAll('text')) {
      const r = t.getBoundingClientRect();
      if (!r.width) continue;
      if (r.left < s.left - 0.5 || r.right > s.right + 0.5 || r.top < s.top - 0.5 || r.bottom > s.bottom + 0.5) {
        out.push(`${svg.dataset.ugw}: '${t.textContent}' cut`);
      }
    }
  }
  return out;
}
