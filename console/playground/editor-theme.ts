import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { Compartment, type Extension } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { tags } from '@lezer/highlight';

// Colours come from the page's custom properties, so the editor follows the light or dark
// scheme with the rest of the page and every colour pair is chosen (and contrast-checked) in one place.
const chrome = EditorView.theme({
  '&': { color: 'var(--fg)', backgroundColor: 'var(--editor-bg)', height: '100%' },
  '.cm-scroller': { fontFamily: 'var(--mono)', fontSize: '0.875rem', lineHeight: '1.5' },
  '.cm-content': { caretColor: 'var(--fg)' },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--fg)' },
  '&.cm-focused': { outline: 'none' },
  '.cm-gutters': { backgroundColor: 'var(--surface-2)', color: 'var(--muted)', borderRight: '1px solid var(--border)' },
  '.cm-activeLine': { backgroundColor: 'var(--active-line)' },
  '.cm-activeLineGutter': { backgroundColor: 'var(--active-line)', color: 'var(--fg)' },
  '&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, .cm-content ::selection': {
    backgroundColor: 'var(--selection)',
  },
  '.cm-selectionMatch': { backgroundColor: 'var(--selection-match)' },
  '.cm-tooltip': { backgroundColor: 'var(--surface)', color: 'var(--fg)', border: '1px solid var(--border)', borderRadius: '6px' },
  '.cm-tooltip-lint': { maxWidth: 'min(32rem, 90vw)' },
  '.cm-diagnostic': { padding: '6px 10px' },
  '.cm-diagnostic-error': { borderLeftColor: 'var(--error)' },
  '.cm-diagnostic-warning': { borderLeftColor: 'var(--warning)' },
  '.cm-panels': { backgroundColor: 'var(--surface-2)', color: 'var(--fg)' },
  '.cm-panels.cm-panels-bottom': { borderTop: '1px solid var(--border)' },
  '.cm-textfield': { backgroundColor: 'var(--editor-bg)', color: 'var(--fg)', border: '1px solid var(--border)' },
  '.cm-button': { backgroundImage: 'none', backgroundColor: 'var(--surface)', color: 'var(--fg)', border: '1px solid var(--border)' },
  '.cm-foldPlaceholder': { backgroundColor: 'var(--surface-2)', color: 'var(--muted)', border: '1px solid var(--border)' },
});

const yamlColours = HighlightStyle.define([
  { tag: tags.definition(tags.propertyName), color: 'var(--syntax-key)' },
  { tag: [tags.string, tags.special(tags.string)], color: 'var(--syntax-string)' },
  { tag: tags.lineComment, color: 'var(--syntax-comment)', fontStyle: 'italic' },
  { tag: [tags.labelName, tags.typeName], color: 'var(--syntax-label)' },
  { tag: [tags.keyword, tags.meta], color: 'var(--syntax-keyword)' },
  { tag: [tags.separator, tags.punctuation, tags.squareBracket, tags.brace], color: 'var(--syntax-punctuation)' },
]);

const DARK_QUERY = '(prefers-color-scheme: dark)';

/**
 * The editor's look: colours from the page's scheme, and CodeMirror's own dark variants switched
 * on while the browser prefers a dark scheme (followed live, as the page's CSS does).
 */
export function editorTheme(): { extension: Extension; follow(view: EditorView): void } {
  const scheme = new Compartment();
  const media = window.matchMedia(DARK_QUERY);
  const dark = (isDark: boolean) => EditorView.theme({}, { dark: isDark });
  return {
    extension: [chrome, syntaxHighlighting(yamlColours), scheme.of(dark(media.matches))],
    follow(view) {
      media.addEventListener('change', (event) => view.dispatch({ effects: scheme.reconfigure(dark(event.matches)) }));
    },
  };
}
