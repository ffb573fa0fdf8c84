import { ApiError, type CapabilityDetail, type CapabilityListing, fetchCapabilities, fetchCapability, type PlatformFilter } from '../api.js';
import { h, replaceChildren, uniqueId } from '../dom.js';
import { describeRendering, type FieldRow } from './field-rows.js';

/** The catalogue view: every capability, and the fields of the one picked. */
export interface CatalogueView {
  element: HTMLElement;
  /** The view's heading, focused when the view is opened. */
  heading: HTMLElement;
  /** Shows the view with a capability picked (the first one when none is named); focuses its details when asked. */
  show(type: string | undefined, options: { focusDetail: boolean }): void;
}

const COMPONENT = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
const VERSION = /^\d+\.\d+(\.\d+)?$/;

/** Builds the catalogue; it asks the service for the capabilities the first time it is shown. */
export function createCatalogueView(): CatalogueView {
  const headingId = uniqueId('catalogue-title');
  const heading = h('h1', { id: headingId, tabindex: -1 }, 'Capability catalogue');

  const componentId = uniqueId('platform-component');
  const versionId = uniqueId('platform-version');
  const platformLabelId = uniqueId('platform-label');
  const platformHelpId = uniqueId('platform-help');
  const componentInput = h('input', {
    id: componentId,
    name: 'component',
    type: 'text',
    value: 'kubernetes',
    autocomplete: 'off',
    spellcheck: 'false',
    'aria-describedby': platformHelpId,
  });
  const versionInput = h('input', {
    id: versionId,
    name: 'version',
    type: 'text',
    inputmode: 'decimal',
    placeholder: '1.29',
    autocomplete: 'off',
    'aria-describedby': platformHelpId,
  });
  const clearButton = h('button', { type: 'button', class: 'button secondary', disabled: true }, 'Clear');
  const platformStatus = h(
    'p',
    { id: platformHelpId, class: 'small muted platform-status', 'aria-live': 'polite' },
    'Showing the fields of every platform version.',
  );
  const platformForm = h(
    'form',
    { class: 'platform-filter pane', novalidate: true, 'aria-labelledby': platformLabelId },
    h('span', { id: platformLabelId, class: 'platform-label' }, 'Platform version'),
    h('span', { class: 'inline-field' }, h('label', { for: componentId }, 'Component'), componentInput),
    h('span', { class: 'inline-field' }, h('label', { for: versionId }, 'Version'), versionInput),
    h('span', { class: 'actions' }, h('button', { type: 'submit', class: 'button' }, 'Apply'), clearButton),
    platformStatus,
  );

  const searchId = uniqueId('capability-search');
  const searchInput = h('input', { id: searchId, type: 'search', autocomplete: 'off', spellcheck: 'false' });
  const indexList = h('ul', { class: 'capability-list' });
  const indexEmpty = h('p', { class: 'muted small', hidden: true }, 'No capability matches.');
  const indexStatus = h('p', { class: 'muted', role: 'status' }, 'Loading capabilities…');
  const indexNav = h('nav', { 'aria-label': 'Capabilities' }, indexList);
  const indexPane = h(
    'div',
    { class: 'capability-index pane' },
    h('div', { class: 'field' }, h('label', { for: searchId }, 'Find a capability'), searchInput),
    indexStatus,
    indexNav,
    indexEmpty,
  );
  const detail = h('article', { class: 'capability-detail pane' }, h('p', { class: 'muted' }, 'Pick a capability to see its fields.'));

  const element = h(
    'section',
    { class: 'view catalogue', 'aria-labelledby': headingId, 'data-view': 'catalogue' },
    h(
      'div',
      { class: 'view-head' },
      heading,
      h(
        'p',
        { class: 'lede' },
        'Every capability this service knows: built in, from CapabilityDefinitions and from plugins. Pick one to see the fields its rendering takes.',
      ),
    ),
    h('div', { class: 'catalogue-layout' }, indexPane, h('div', { class: 'detail-column' }, platformForm, detail)),
  );

  let listings: CapabilityListing[] | undefined;
  let loadingList: Promise<void> | undefined;
  let selected: string | undefined;
  let platform: PlatformFilter | undefined;
  const chosenVersion = new Map<string, string>();
  let detailRequest: AbortController | undefined;

  async function loadList(): Promise<void> {
    try {
      listings = await fetchCapabilities();
      indexStatus.textContent = `${listings.length} capabilities`;
      indexStatus.classList.add('visually-hidden');
      renderIndex();
    } catch (err) {
      loadingList = undefined;
      const retry = h('button', { type: 'button', class: 'button secondary' }, 'Try again');
      retry.addEventListener('click', () => void ensureList().then(() => selected && void loadDetail(selected, false)));
      replaceChildren(indexStatus, `Cannot load the capabilities: ${messageOf(err)} `, retry);
      indexStatus.setAttribute('role', 'alert');
    }
  }

  function ensureList(): Promise<void> {
    loadingList ??= loadList();
    return loadingList;
  }

  function renderIndex(): void {
    const query = searchInput.value.trim().toLowerCase();
    const shown = (listings ?? []).filter((c) => !query || c.type.includes(query) || c.description.toLowerCase().includes(query));
    replaceChildren(
      indexList,
      ...shown.map((c) =>
        h(
          'li',
          {},
          h(
            'a',
            {
              href: `#catalogue/${encodeURIComponent(c.type)}`,
              class: 'capability-link',
              'data-type': c.type,
              'aria-current': c.type === selected ? 'true' : false,
            },
            h('span', { class: 'capability-type' }, c.type),
            h('span', { class: `badge source-${sourceKind(c)}` }, sourceLabel(c)),
            c.latest ? h('span', { class: 'badge version' }, `v${c.latest}`) : null,
            h('span', { class: 'capability-summary' }, c.description),
          ),
        ),
      ),
    );
    indexEmpty.hidden = shown.length > 0;
    const current = indexList.querySelector<HTMLElement>('[aria-current="true"]');
    if (current) revealWithin(indexNav, current);
  }

  async function loadDetail(type: string, focus: boolean): Promise<void> {
    const listing = listings?.find((c) => c.type === type);
    if (!listing) {
      replaceChildren(detail, h('h2', { tabindex: -1 }, type), h('p', { role: 'alert' }, `This service knows no capability ${JSON.stringify(type)}.`));
      return;
    }
    detailRequest?.abort();
    const controller = new AbortController();
    detailRequest = controller;
    detail.setAttribute('aria-busy', 'true');
    const version = chosenVersion.get(type) ?? listing.latest;
    try {
      const capability = await fetchCapability(type, {
        ...(version && listing.versions ? { version } : {}),
        ...(platform ? { platform } : {}),
        signal: controller.signal,
      });
      if (controller.signal.aborted) return;
      renderDetail(listing, capability);
    } catch (err) {
      if (controller.signal.aborted) return;
      replaceChildren(detail, h('h2', { tabindex: -1 }, type), h('p', { role: 'alert' }, `Cannot load ${type}: ${messageOf(err)}`));
    } finally {
      if (detailRequest === controller) detail.removeAttribute('aria-busy');
    }
    if (focus) detail.querySelector<HTMLElement>('h2')?.focus();
  }

  function renderDetail(listing: CapabilityListing, capability: CapabilityDetail): void {
    const titleId = uniqueId('detail-title');
    detail.setAttribute('aria-labelledby', titleId);
    detail.dataset['type'] = capability.type;
    const fields = describeRendering(capability.schema);
    const facts = h(
      'dl',
      { class: 'facts' },
      h('dt', {}, 'Source'),
      h('dd', {}, h('code', {}, capability.source), ` (${sourceLabel(listing)})`),
      h('dt', {}, 'In applications'),
      h('dd', {}, useInApplications(capability)),
    );
    if (listing.versions && listing.versions.length > 0) {
      facts.append(h('dt', {}, 'Versions'), h('dd', {}, versionPicker(listing)));
    }
    replaceChildren(
      detail,
      h('h2', { id: titleId, tabindex: -1, class: 'detail-title' }, capability.type),
      h('p', { class: 'detail-description' }, capability.description),
      facts,
      listing.versions && listing.versions.length > 0 ? versionTable(listing) : null,
      h('h3', {}, 'Fields'),
      platform ? h('p', { class: 'small muted' }, `As ${platform.component} ${platform.version} sees them.`) : null,
      fields.isPassThrough ? h('p', { class: 'note' }, 'Not validated: any rendering is passed to the trait unchanged.') : null,
      fields.rows.length > 0 ? fieldTable(`Fields of ${capability.type}`, fields.rows) : null,
      ...fields.branches.flatMap((branch) => {
        const label = branch.discriminator ? `${branch.discriminator}: ${branch.label}` : branch.label;
        return [
          h('h4', { class: 'branch-title' }, branch.discriminator ? h('code', {}, label) : label),
          branch.description ? h('p', { class: 'small muted' }, branch.description) : null,
          fieldTable(`Fields of ${capability.type} when ${label}`, branch.rows),
        ];
      }),
    );
  }

  function versionPicker(listing: CapabilityListing): HTMLElement {
    const id = uniqueId('version');
    const current = chosenVersion.get(listing.type) ?? listing.latest;
    const select = h(
      'select',
      { id },
      ...(listing.versions ?? []).map((v) =>
        h('option', { value: v.version, selected: v.version === current }, v.version === listing.latest ? `${v.version} (latest)` : v.version),
      ),
    );
    select.addEventListener('change', () => {
      chosenVersion.set(listing.type, select.value);
      void loadDetail(listing.type, false);
    });
    return h('span', { class: 'version-picker' }, h('label', { for: id, class: 'visually-hidden' }, `Version of ${listing.type}`), select);
  }

  searchInput.addEventListener('input', renderIndex);

  platformForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const component = componentInput.value.trim().toLowerCase();
    const version = versionInput.value.trim();
    if (!COMPONENT.test(component) || !VERSION.test(version)) {
      platformStatus.textContent = !COMPONENT.test(component)
        ? `Expected a component name such as kubernetes or gateway-api, found ${JSON.stringify(component)}.`
        : `Expected a version such as 1.29 or 1.29.3, found ${JSON.stringify(version)}.`;
      platformStatus.dataset['state'] = 'invalid';
      (COMPONENT.test(component) ? versionInput : componentInput).setAttribute('aria-invalid', 'true');
      return;
    }
    componentInput.removeAttribute('aria-invalid');
    versionInput.removeAttribute('aria-invalid');
    platform = { component, version };
    platformStatus.textContent = `Showing the fields as ${component} ${version} sees them.`;
    platformStatus.dataset['state'] = 'applied';
    clearButton.disabled = false;
    if (selected) void loadDetail(selected, false);
  });

  clearButton.addEventListener('click', () => {
    platform = undefined;
    versionInput.value = '';
    componentInput.removeAttribute('aria-invalid');
    versionInput.removeAttribute('aria-invalid');
    platformStatus.textContent = 'Showing the fields of every platform version.';
    delete platformStatus.dataset['state'];
    clearButton.disabled = true;
    versionInput.focus();
    if (selected) void loadDetail(selected, false);
  });

  return {
    element,
    heading,
    show(type, { focusDetail }) {
      void ensureList().then(() => {
        const target = type ?? selected ?? listings?.[0]?.type;
        if (!target || !listings) return;
        if (target === selected && detail.dataset['type'] === target) {
          if (focusDetail) detail.querySelector<HTMLElement>('h2')?.focus();
          return;
        }
        selected = target;
        renderIndex();
        void loadDetail(target, focusDetail);
      });
    },
  };
}

/** Scrolls a scrolling container (never the page) so that an element inside it is in view. */
function revealWithin(container: HTMLElement, element: HTMLElement): void {
  const outer = container.getBoundingClientRect();
  const inner = element.getBoundingClientRect();
  if (inner.top < outer.top) container.scrollTop -= outer.top - inner.top + 8;
  else if (inner.bottom > outer.bottom) container.scrollTop += inner.bottom - outer.bottom + 8;
}

function fieldTable(caption: string, rows: FieldRow[]): HTMLElement {
  const captionId = uniqueId('fields');
  return h(
    'div',
    { class: 'table-scroll', role: 'region', 'aria-labelledby': captionId, tabindex: 0 },
    h(
      'table',
      { class: 'fields' },
      h('caption', { id: captionId, class: 'visually-hidden' }, caption),
      h('thead', {}, h('tr', {}, ...['Name', 'Type', 'Required', 'Default', 'Allowed values', 'Lifecycle'].map((title) => h('th', { scope: 'col' }, title)))),
      h('tbody', {}, ...rows.map(fieldRow)),
    ),
  );
}

function fieldRow(row: FieldRow): HTMLElement {
  const cut = row.name.search(/[^.[\]*]+$/);
  const parent = cut > 0 ? row.name.slice(0, cut) : '';
  const own = row.name.slice(parent.length);
  return h(
    'tr',
    { 'data-field': row.name, class: row.deprecated ? 'deprecated' : false },
    h(
      'th',
      { scope: 'row', class: `field-name depth-${Math.min(row.depth, 4)}` },
      h('code', {}, parent ? h('span', { class: 'field-parent' }, parent) : null, h('span', { class: 'field-own' }, own)),
      row.description ? h('span', { class: 'field-description' }, row.description) : null,
    ),
    h('td', { 'data-column': 'type' }, h('code', {}, row.type)),
    h(
      'td',
      { 'data-column': 'required' },
      row.required ? h('strong', {}, 'yes') : 'no',
      row.requiredWhen ? h('span', { class: 'field-note' }, row.requiredWhen) : null,
    ),
    h('td', { 'data-column': 'default' }, row.defaultValue !== undefined ? h('code', {}, row.defaultValue) : h('span', { class: 'muted' }, '—')),
    h(
      'td',
      { 'data-column': 'allowed' },
      row.allowed.length > 0 ? h('span', { class: 'values' }, ...row.allowed.map((v) => h('code', { class: 'value' }, v))) : null,
      ...row.constraints.map((c) => h('span', { class: 'field-note' }, c)),
      row.allowed.length === 0 && row.constraints.length === 0 ? h('span', { class: 'muted' }, row.hasFields ? 'fields below' : 'any') : null,
    ),
    h(
      'td',
      { 'data-column': 'lifecycle' },
      ...row.lifecycle.map((l) => h('span', { class: l.startsWith('deprecated') ? 'badge deprecated' : 'field-note' }, l)),
      row.lifecycle.length === 0 ? h('span', { class: 'muted' }, '—') : null,
    ),
  );
}

function versionTable(listing: CapabilityListing): HTMLElement {
  return h(
    'details',
    { class: 'versions' },
    h('summary', {}, `${listing.versions!.length} published version${listing.versions!.length === 1 ? '' : 's'}`),
    h(
      'div',
      { class: 'table-scroll' },
      h(
        'table',
        { class: 'fields' },
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Version'), h('th', { scope: 'col' }, 'File'), h('th', { scope: 'col' }, 'Digest'))),
        h(
          'tbody',
          {},
          ...listing.versions!.map((v) =>
            h(
              'tr',
              { 'data-version': v.version },
              h('th', { scope: 'row' }, v.version, v.version === listing.latest ? h('span', { class: 'badge version' }, 'latest') : null),
              h('td', {}, h('code', {}, v.file)),
              h('td', {}, h('code', { class: 'digest', title: v.digest }, v.digest)),
            ),
          ),
        ),
      ),
    ),
  );
}

function sourceKind(c: CapabilityListing): 'builtin' | 'plugin' | 'definition' {
  if (c.source === 'builtin') return 'builtin';
  if (c.source.startsWith('plugin:')) return 'plugin';
  return 'definition';
}

function sourceLabel(c: CapabilityListing): string {
  const kind = sourceKind(c);
  const base = kind === 'builtin' ? 'built-in' : kind;
  return c.hasDefinition && kind !== 'definition' ? `${base} + definition` : base;
}

function messageOf(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  return err instanceof Error ? err.message : String(err);
}

/** What a trait of this capability type is to an application, as the detail's "In applications" says it. */
function useInApplications(capability: { capabilityRequired: boolean; capabilityAware?: boolean | undefined }): string {
  if (capability.capabilityRequired) return 'a trait of this type needs this capability in the profile';
  if (capability.capabilityAware) return 'uses this capability when the profile binds it';
  return 'a trait of its own; the profile may set its defaults';
}
