(root) => {
  // the theme's variables: every --jp-* name its style sheets set, valued as at the widget
  const names = new Set();
  const walk = (rules) => {
    for (const rule of rules) {
      if (rule.style) for (const name of rule.style) if (name.startsWith('--jp-')) names.add(name);
      if (rule.cssRules) walk(rule.cssRules);
    }
  };
  for (const sheet of document.styleSheets) { try { walk(sheet.cssRules); } catch (e) { /* not ours */ } }
  const cs = getComputedStyle(root);
  const vars = {};
  for (const name of names) vars[name] = cs.getPropertyValue(name);
  const body = getComputedStyle(document.body);
  return { html: root.outerHTML, vars, count: names.size, width: root.getBoundingClientRect().width,
    light: document.body.dataset.jpThemeLight || 'true', bg: body.backgroundColor, font: body.fontFamily };
}
