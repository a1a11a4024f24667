// Placeholder: the widget engineer replaces this file.
export default {
  render({ model, el }) {
    el.textContent = "ugentopoly";
  },
};
