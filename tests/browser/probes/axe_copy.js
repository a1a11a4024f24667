async () => {
  const root = document.querySelector('[data-ugw=root]');
  const lang = root.querySelector('[data-ugw=lang]');
  axe.setup(document);
  const seen = lang ? axe.commons.text.visibleVirtual(axe.utils.getNodeFromTree(lang)) : null;
  const onScreen = lang ? axe.commons.dom.isVisibleOnScreen(lang) : null;
  axe.teardown();
  const res = await axe.run(root, {
    runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    rules: { 'label-content-name-mismatch': { enabled: true } },
    resultTypes: ['violations', 'passes', 'incomplete'],
  });
  const contrast = res.passes.find((p) => p.id === 'color-contrast');
  const unsure = res.incomplete.find((p) => p.id === 'color-contrast');
  return {
    seen, onScreen, checked: contrast ? contrast.nodes.length : 0,
    unsure: unsure ? unsure.nodes.length : 0,
    why: unsure ? [...new Set(unsure.nodes.map((n) => (n.any[0] || {}).message + ' @ ' + n.target.join(' ')))].slice(0, 8) : [],
    violations: res.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious').map((v) => ({
      id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 4).map((n) => n.target.join(' ') + ' :: ' + (n.failureSummary || '').slice(0, 160)),
    })),
  };
}
