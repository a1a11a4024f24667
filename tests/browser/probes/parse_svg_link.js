(href) => {
  const text = decodeURIComponent(href.split(',')[1]);
  const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
  return {
    root: doc.documentElement.nodeName, error: !!doc.querySelector('parsererror'),
    heat: doc.querySelectorAll('.heat').length, text: doc.documentElement.textContent.slice(0, 4000),
  };
}
