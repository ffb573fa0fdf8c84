import { yaml } from '@codemirror/lang-yaml';
import { type Diagnostic, linter, lintGutter } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { basicSetup } from 'codemirror';
import { stringify } from 'yaml';
import { explanationUrl, type ServiceDiagnostic, type ValidateResult, validateProfileText } from '../api.js';
import { h, replaceChildren, uniqueId } from '../dom.js';
import { editorTheme } from './editor-theme.js';
import { offsetOf, rangeOf } from './positions.js';
import { packText, ShareError, unpackText } from './share.js';
import { typeOverSelection } from './type-over-selection.js';

/** The profile the playground opens with when no link brings one. */
export const SAMPLE_PROFILE = `# What this cluster offers to the applications on it.
# Edit it: problems are underlined as you type.
apiVersion: launcher.gokure.dev/v1alpha1
kind: ClusterProfile
metadata:
  name: edge
spec:
  capabilities:
    expose:
      rendering:
        controllerType: gateway
        gatewayName: public-gw
    certificate:
      rendering:
        issuerRef:
          name: letsencrypt
`;

/** How long typing must pause before the profile is sent for checking. */
const CHECK_DELAY_MS = 350;
/** The file name diagnostics about the sent profile carry (docs/service.md). */
const REQUEST_FILE = 'request';
/** The fragment prefix of a shared profile: `#playground/<packed text>`. */
export const SHARE_PREFIX = 'playground/';

/** The playground view: the editor, the problems, the resolved profile. */
export interface PlaygroundView {
  element: HTMLElement;
  /** The view's heading, focused when the view is opened. */
  heading: HTMLElement;
  /** Puts a profile shared through a link into the editor, unless it is the one last shared or opened here. */
  openShared(packed: string): Promise<void>;
}

/** Builds the playground; the editor's injected styles carry the page's CSP nonce. */
export function createPlaygroundView(options: { nonce: string }): PlaygroundView {
  const headingId = uniqueId('playground-title');
  const heading = h('h1', { id: headingId, tabindex: -1 }, 'Playground');
  const status = h('p', { class: 'check-status', role: 'status', 'data-state': 'checking' }, 'Checking…');
  const shareButton = h('button', { type: 'button', class: 'button' }, 'Copy share link');
  const downloadButton = h('button', { type: 'button', class: 'button' }, 'Download cluster.yaml');
  const shareOutputId = uniqueId('share-link');
  const shareOutput = h('input', { id: shareOutputId, class: 'share-output', type: 'text', readonly: true, spellcheck: 'false' });
  const shareMessage = h('p', { class: 'small muted' });
  const shareNote = h('div', { class: 'share-note', hidden: true }, h('label', { for: shareOutputId }, 'Share link'), shareOutput, shareMessage);
  const notice = h('p', { class: 'notice-error', role: 'alert', hidden: true });
  let lastPacked: string | undefined;

  const editorLabelId = uniqueId('editor-label');
  const editorHelpId = uniqueId('editor-help');
  const editorHost = h('div', { class: 'editor-frame' });
  const problemsTitleId = uniqueId('problems-title');
  const problemCount = h('span', { class: 'count' }, '');
  const problemList = h('ol', { class: 'problem-list', 'aria-labelledby': problemsTitleId });
  const problemEmpty = h('p', { class: 'muted' }, 'No problems.');
  const resolvedTitleId = uniqueId('resolved-title');
  const resolvedCode = h('code', {}, '');
  // A focusable, scrollable block with a name is a region: a plain pre may not be named.
  const resolvedPre = h('pre', { class: 'resolved', role: 'region', tabindex: 0, 'aria-labelledby': resolvedTitleId, hidden: true }, resolvedCode);
  const resolvedNote = h('p', { class: 'muted resolved-note' }, 'The resolved profile appears once the profile is checked.');

  const element = h(
    'section',
    { class: 'view playground', 'aria-labelledby': headingId, 'data-view': 'playground' },
    h(
      'div',
      { class: 'view-head with-tools' },
      h(
        'div',
        {},
        heading,
        h('p', { class: 'lede' }, 'Write or paste a ClusterProfile: this service checks it as you type and resolves its defaults. Nothing is stored.'),
      ),
      h('div', { class: 'toolbar' }, shareButton, downloadButton),
    ),
    notice,
    shareNote,
    h(
      'div',
      { class: 'playground-layout' },
      h(
        'section',
        { class: 'pane editor-pane', 'aria-labelledby': editorLabelId },
        h('div', { class: 'pane-head' }, h('h2', { id: editorLabelId, class: 'pane-title' }, 'Profile'), status),
        h('p', { id: editorHelpId, class: 'muted small' }, 'Tab leaves the editor. F8 moves to the next problem; hovering an underline shows its details.'),
        editorHost,
      ),
      h(
        'section',
        { class: 'pane problems-pane', 'aria-labelledby': problemsTitleId },
        h('h2', { id: problemsTitleId, class: 'pane-title' }, 'Problems ', problemCount),
        problemEmpty,
        problemList,
      ),
      h(
        'section',
        { class: 'pane resolved-pane', 'aria-labelledby': resolvedTitleId },
        h('h2', { id: resolvedTitleId, class: 'pane-title' }, 'Resolved profile'),
        h('p', { class: 'muted small' }, 'Every binding with the platform defaults applied.'),
        resolvedNote,
        resolvedPre,
      ),
    ),
  );

  let inFlight: AbortController | undefined;
  const check = async (view: EditorView): Promise<Diagnostic[]> => {
    const doc = view.state.doc;
    inFlight?.abort();
    const controller = new AbortController();
    inFlight = controller;
    setStatus('checking', 'Checking…');
    let result: ValidateResult;
    try {
      result = await validateProfileText(doc.toString(), controller.signal);
    } catch (err) {
      if (controller.signal.aborted) return [];
      setStatus('failed', `Cannot check the profile: ${(err as Error).message}`);
      return [];
    }
    // A newer text is on its way to the service; this answer is about one nobody sees any more.
    if (view.state.doc !== doc) return [];
    // A problem a comment in the profile silenced is left out, as kurel lint's text leaves it out.
    const own = result.diagnostics.filter((d) => d.file === REQUEST_FILE && d.suppressed === undefined);
    showProblems(view, own);
    showResolved(result);
    return own.map((d) => toEditorDiagnostic(doc, d));
  };

  const theme = editorTheme();
  const view = new EditorView({
    parent: editorHost,
    state: EditorState.create({
      doc: SAMPLE_PROFILE,
      extensions: [
        basicSetup,
        EditorView.lineWrapping,
        typeOverSelection,
        yaml(),
        lintGutter(),
        linter(check, { delay: CHECK_DELAY_MS }),
        theme.extension,
        EditorView.cspNonce.of(options.nonce),
        // The content is focusable as an editable element already; the explicit tabindex says so to
        // checkers that look for a keyboard way into the scrolling area.
        EditorView.contentAttributes.of({ 'aria-labelledby': editorLabelId, 'aria-describedby': editorHelpId, tabindex: '0' }),
      ],
    }),
  });
  theme.follow(view);

  function setStatus(state: 'checking' | 'valid' | 'invalid' | 'failed', text: string): void {
    status.dataset['state'] = state;
    status.textContent = text;
  }

  function showProblems(target: EditorView, diagnostics: ServiceDiagnostic[]): void {
    const errors = diagnostics.filter((d) => d.severity === 'error').length;
    const warnings = diagnostics.length - errors;
    problemCount.textContent = diagnostics.length > 0 ? `(${diagnostics.length})` : '';
    problemEmpty.hidden = diagnostics.length > 0;
    if (diagnostics.length === 0) setStatus('valid', 'Valid: no problems found');
    else setStatus(errors > 0 ? 'invalid' : 'valid', [plural(errors, 'error'), plural(warnings, 'warning')].filter(Boolean).join(', '));
    replaceChildren(problemList, ...diagnostics.map((d) => problemItem(target, d)));
  }

  function showResolved(result: ValidateResult): void {
    if (result.resolved === null || result.resolved === undefined) {
      resolvedNote.textContent = 'The resolved profile appears once the profile has no errors.';
      resolvedNote.hidden = false;
      resolvedPre.hidden = true;
      return;
    }
    resolvedNote.hidden = true;
    resolvedPre.hidden = false;
    resolvedCode.textContent = stringify(result.resolved);
  }

  shareButton.addEventListener('click', () => {
    void (async () => {
      const packed = await packText(view.state.doc.toString());
      lastPacked = packed;
      history.replaceState(null, '', `#${SHARE_PREFIX}${packed}`);
      shareOutput.value = location.href;
      shareNote.hidden = false;
      let copied = false;
      try {
        await navigator.clipboard.writeText(location.href);
        copied = true;
      } catch {
        // Clipboard access may be refused; the link is in the field to copy by hand.
      }
      shareMessage.textContent = `${copied ? 'Copied.' : 'Copy it from the field.'} The profile travels in the link itself (after the #), so no server ever receives it.`;
      shareOutput.focus();
      shareOutput.select();
    })();
  });

  downloadButton.addEventListener('click', () => {
    const url = URL.createObjectURL(new Blob([view.state.doc.toString()], { type: 'application/yaml' }));
    const link = h('a', { href: url, download: 'cluster.yaml', hidden: true });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 0);
  });

  return {
    element,
    heading,
    async openShared(packed) {
      if (packed === lastPacked) return;
      lastPacked = packed;
      try {
        const text = await unpackText(packed);
        notice.hidden = true;
        view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
      } catch (err) {
        if (!(err instanceof ShareError)) throw err;
        notice.textContent = `Cannot open the shared profile: ${err.message}. The editor keeps its profile.`;
        notice.hidden = false;
      }
    },
  };
}

function toEditorDiagnostic(doc: EditorState['doc'], d: ServiceDiagnostic): Diagnostic {
  const { from, to } = rangeOf(doc, d);
  return {
    from,
    to,
    severity: d.severity,
    // The code is in the rendered message, linked to its explanation; a source line would repeat it.
    message: d.hint ? `${d.message} (${d.hint})` : d.message,
    renderMessage: () => diagnosticDetails(d),
  };
}

/** What a diagnostic's hover tooltip shows: message, hint and the code, linked to its explanation. */
function diagnosticDetails(d: ServiceDiagnostic): HTMLElement {
  return h(
    'div',
    { class: 'diagnostic-details', 'data-code': d.code },
    h('p', { class: 'diagnostic-message' }, d.message),
    d.hint ? h('p', { class: 'diagnostic-hint' }, 'Hint: ', d.hint) : null,
    h(
      'p',
      { class: 'diagnostic-code' },
      h('a', { href: explanationUrl(d.code), target: '_blank', rel: 'noopener' }, d.code),
      ' · line ',
      d.line,
      ', column ',
      d.column,
    ),
  );
}

function problemItem(view: EditorView, d: ServiceDiagnostic): HTMLElement {
  const jump = h(
    'button',
    { type: 'button', class: 'problem-jump' },
    h('span', { class: `severity severity-${d.severity}` }, d.severity),
    h('span', { class: 'problem-position' }, `Line ${d.line}, column ${d.column}`),
    h('span', { class: 'problem-message' }, d.message),
  );
  jump.addEventListener('click', () => {
    // Positions are read against the text as it is now: it may have changed since the check.
    const anchor = offsetOf(view.state.doc, d.line, d.column);
    view.dispatch({ selection: { anchor }, scrollIntoView: true });
    view.focus();
  });
  return h(
    'li',
    {
      class: `problem problem-${d.severity}`,
      'data-code': d.code,
      'data-line': d.line,
      'data-column': d.column,
      'data-end-line': d.endLine,
      'data-end-column': d.endColumn,
    },
    jump,
    h(
      'p',
      { class: 'problem-meta' },
      h('a', { href: explanationUrl(d.code), target: '_blank', rel: 'noopener', class: 'problem-code', 'aria-label': `${d.code}: what it means` }, d.code),
      d.hint ? h('span', { class: 'problem-hint' }, d.hint) : null,
    ),
  );
}

function plural(count: number, noun: string): string {
  return count === 0 ? '' : `${count} ${noun}${count === 1 ? '' : 's'}`;
}
