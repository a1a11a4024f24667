(root) => {
  const problems = [];
  const sizes = [];
  const inside = (a, b) => a.left >= b.left - 0.5 && a.right <= b.right + 0.5 && a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5;
  const overlap = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
  for (const tile of root.querySelectorAll('[data-ugw-tile]')) {
    const pos = tile.dataset.ugwTile;
    const tb = tile.getBoundingClientRect();
    const name = tile.querySelector('.ugw-tile-name');
    const price = tile.querySelector('.ugw-tile-price');
    const vertical = getComputedStyle(name).writingMode !== 'horizontal-tb';
    sizes.push(parseFloat(getComputedStyle(name).fontSize));
    if (name.scrollWidth > name.clientWidth + 1 || name.scrollHeight > name.clientHeight + 1) {
      problems.push(`tile ${pos}: name overflows (${name.scrollWidth}x${name.scrollHeight} in ${name.clientWidth}x${name.clientHeight})`);
    }
    // line breaks: walk the characters; a new line may only start after a space or a hyphen
    const walker = document.createTreeWalker(name, NodeFilter.SHOW_TEXT);
    let prevChar = null, prevLine = null;
    const range = document.createRange();
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent;
      for (let i = 0; i < text.length; i++) {
        range.setStart(node, i); range.setEnd(node, i + 1);
        const rects = range.getClientRects();
        if (!rects.length) { prevChar = text[i]; continue; }
        const r = rects[rects.length - 1];
        if (r.width < 0.1 && r.height < 0.1) { prevChar = text[i]; continue; }
        if (!inside(r, tb)) problems.push(`tile ${pos}: character '${text[i]}' outside its tile`);
        const line = vertical ? Math.round(r.left + r.width / 2) : Math.round(r.top + r.height / 2);
        const fs = parseFloat(getComputedStyle(name).fontSize);
        if (prevLine !== null && Math.abs(line - prevLine) > fs * 0.6) {
          if (!(prevChar === ' ' || prevChar === '\n' || prevChar === '\u00ad' || prevChar === '-' || text[i] === ' ' || text[i] === '\n')) {
            problems.push(`tile ${pos}: '${name.textContent.replace(/\u00ad/g, '')}' breaks inside a word before '${text.slice(i, i + 4)}'`);
          }
        }
        if (text[i] !== '\u00ad') { prevLine = line; }
        prevChar = text[i];
      }
    }
    if (price && price.textContent && !inside(price.getBoundingClientRect(), tb)) problems.push(`tile ${pos}: price outside its tile`);
    for (const tok of tile.querySelectorAll('[data-ugw-token]')) {
      const r = tok.getBoundingClientRect();
      if (price && price.textContent && overlap(r, price.getBoundingClientRect())) problems.push(`tile ${pos}: a token covers the price`);
      if (name.textContent && overlap(r, name.getBoundingClientRect())) problems.push(`tile ${pos}: a token covers the name`);
    }
  }
  return { problems: problems.slice(0, 20), count: problems.length, minFont: Math.min(...sizes),
           boardWidth: root.querySelector('div[data-ugw=board]').getBoundingClientRect().width };
}
