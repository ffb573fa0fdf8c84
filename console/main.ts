import './styles.css';
import { type CatalogueView, createCatalogueView } from './catalogue/catalogue-view.js';
import { h } from './dom.js';
import type { PlaygroundView } from './playground/playground-view.js';

/**
 * The console's entry: two views behind the fragment (`#catalogue[/TYPE]`,
 * `#playground[/<shared profile>]`). The playground and its editor are a chunk of their own,
 * fetched the first time the view opens.
 */

type Route = { view: 'catalogue'; type?: string } | { view: 'playground'; shared?: string };

const PLAYGROUND_SHARE = 'playground/';

/** The nonce the server put in the page for this response; CodeMirror's injected styles need it under the CSP. */
const nonce = document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce ?? '';
const main = document.getElementById('main')!;
const catalogue: CatalogueView = createCatalogueView();
let playground: Promise<PlaygroundView> | undefined;
let current: Route['view'] | undefined;

main.append(catalogue.element);
catalogue.element.hidden = true;

function parseRoute(hash: string): Route | undefined {
  const fragment = hash.replace(/^#/, '');
  if (fragment === '' || fragment === 'catalogue') return { view: 'catalogue' };
  if (fragment.startsWith('catalogue/')) {
    const type = decodeFragment(fragment.slice('catalogue/'.length));
    return type === undefined ? { view: 'catalogue' } : { view: 'catalogue', type };
  }
  if (fragment === 'playground') return { view: 'playground' };
  if (fragment.startsWith(PLAYGROUND_SHARE)) return { view: 'playground', shared: fragment.slice(PLAYGROUND_SHARE.length) };
  return undefined;
}

function decodeFragment(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

function loadPlayground(): Promise<PlaygroundView> {
  playground ??= import('./playground/playground-view.js').then(({ createPlaygroundView }) => {
    const view = createPlaygroundView({ nonce });
    view.element.hidden = true;
    main.append(view.element);
    return view;
  });
  return playground;
}

async function navigate(route: Route, isFirst: boolean): Promise<void> {
  const changed = route.view !== current;
  current = route.view;
  for (const link of document.querySelectorAll<HTMLAnchorElement>('nav.views a[data-view]')) {
    if (link.dataset['view'] === route.view) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  if (route.view === 'catalogue') {
    if (playground) (await playground).element.hidden = true;
    catalogue.element.hidden = false;
    document.title = route.type ? `${route.type} · Catalogue · kurel console` : 'Catalogue · kurel console';
    catalogue.show(route.type, { focusDetail: !isFirst && !changed && route.type !== undefined });
    if (changed && !isFirst) catalogue.heading.focus();
    return;
  }
  catalogue.element.hidden = true;
  document.title = 'Playground · kurel console';
  let view: PlaygroundView;
  try {
    view = await loadPlayground();
  } catch (err) {
    playground = undefined;
    main.append(h('p', { role: 'alert', class: 'load-error' }, `The playground could not be loaded: ${(err as Error).message}. Reload the page to try again.`));
    return;
  }
  if (current !== 'playground') return;
  view.element.hidden = false;
  if (route.shared) await view.openShared(route.shared);
  if (changed && !isFirst) view.heading.focus();
}

function onHashChange(isFirst: boolean): void {
  const route = parseRoute(location.hash);
  // Any other fragment (an in-page link) leaves the view as it is.
  if (!route) {
    if (isFirst) void navigate({ view: 'catalogue' }, true);
    return;
  }
  void navigate(route, isFirst);
}

document.querySelector<HTMLAnchorElement>('.skip-link')?.addEventListener('click', (event) => {
  event.preventDefault();
  main.focus();
});
window.addEventListener('hashchange', () => onHashChange(false));
onHashChange(true);
