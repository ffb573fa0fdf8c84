import { EditorView } from '@codemirror/view';

/**
 * Replaces a selection with the typed text in the editor's own state, instead of letting the
 * browser edit the DOM: when a selection spans lines, Chromium merges the line elements and
 * writes inline `style` attributes to keep their look, which the console's CSP refuses (a
 * violation logged for every such keystroke). Composition input is left to the browser.
 */
export const typeOverSelection = EditorView.domEventHandlers({
  beforeinput(event, view) {
    if (event.inputType !== 'insertText' || event.isComposing || event.data === null) return false;
    if (view.state.selection.ranges.every((range) => range.empty)) return false;
    event.preventDefault();
    view.dispatch({ ...view.state.replaceSelection(event.data), userEvent: 'input.type', scrollIntoView: true });
    return true;
  },
});
