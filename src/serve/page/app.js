// tablekit serve: the form, the previews and the downloads. Talks only to the
// server that sent it; every word comes from the catalog's words for the language.
'use strict';

const state = { catalog: null, kits: [], lang: 'en', sequence: 0, timer: 0, build: null };
const $ = (id) => document.getElementById(id);
const PAPER_NAMES = {
  a4: 'A4 (210 × 297 mm)', letter: 'Letter (8.5 × 11 in)', a3: 'A3 (297 × 420 mm)',
  legal: 'Legal (8.5 × 14 in)', a5: 'A5 (148 × 210 mm)', tabloid: 'Tabloid (11 × 17 in)',
};

// A string with `{name}` and `{count:one=# thing|other=# things}` filled in.
function fill(text, values, lang) {
  return text.replace(/\{([a-z_]+)(?::([^}]*))?\}/g, (whole, name, forms) => {
    const value = values[name];
    if (value === undefined) return whole;
    if (forms === undefined) return String(value);
    const choices = Object.fromEntries(forms.split('|').map((f) => {
      const at = f.indexOf('=');
      return [f.slice(0, at), f.slice(at + 1)];
    }));
    const category = new Intl.PluralRules(lang).select(Number(value));
    return (choices[category] ?? choices.other ?? '').replace(/#/g, String(value));
  });
}

function pageLang() {
  return state.catalog.words[state.lang] ? state.lang : (state.pageLang || 'en');
}

function t(key, values = {}) {
  const lang = pageLang();
  const words = state.catalog.words[lang] || state.catalog.words.en;
  return fill(words[key] ?? state.catalog.words.en[key] ?? key, values, lang);
}

function applyWords() {
  const lang = pageLang();
  state.pageLang = lang;
  const rtl = state.catalog.languages.find((l) => l.code === lang)?.rtl;
  document.documentElement.lang = lang;
  document.documentElement.dir = rtl ? 'rtl' : 'ltr';
  document.title = t('page.title');
  for (const element of document.querySelectorAll('[data-w]')) {
    element.textContent = t(element.dataset.w);
  }
}

function option(value, text, selected) {
  const element = document.createElement('option');
  element.value = value;
  element.textContent = text;
  element.selected = Boolean(selected);
  return element;
}

// A kit's words in the sheets' language, `{size}` filled with the size chosen for
// the kit being built (the kit's own size for the others).
function kitText(kit, field) {
  const text = kit[field][state.lang] ?? kit[field].en ?? kit.kit;
  const chosen = $('size').dataset.kit === kit.id && Number($('size').value);
  return fill(text, { size: chosen || kit.default_size }, state.lang);
}

function currentKit() {
  const checked = document.querySelector('input[name="kit"]:checked');
  return state.kits.find((k) => k.id === checked?.value) || state.kits[0];
}

function renderKits() {
  const list = $('kit-list');
  const chosen = currentKit()?.id;
  list.replaceChildren(...state.kits.map((kit, index) => {
    const label = document.createElement('label');
    label.className = 'kit';
    const input = document.createElement('input');
    Object.assign(input, { type: 'radio', name: 'kit', value: kit.id });
    input.checked = chosen ? kit.id === chosen : index === 0;
    const picture = document.createElement('img');
    Object.assign(picture, { src: kit.thumbnail, alt: '', width: 64, height: 90 });
    const words = document.createElement('span');
    const title = document.createElement('span');
    title.className = 'kit-title';
    title.textContent = kitText(kit, 'titles');
    const tagline = document.createElement('span');
    tagline.className = 'kit-tagline';
    tagline.textContent = kitText(kit, 'taglines');
    words.append(title, tagline);
    label.append(input, picture, words);
    return label;
  }));
}

// Each card's title again, for the size now chosen (the cards stay, and so does
// the keyboard's place among them).
function renameKits() {
  for (const card of document.querySelectorAll('.kit')) {
    const kit = state.kits.find((k) => k.id === card.querySelector('input').value);
    if (kit) card.querySelector('.kit-title').textContent = kitText(kit, 'titles');
  }
}

// The choices that depend on the kit: its languages, sizes, cells and puzzles.
function renderKitOptions() {
  const kit = currentKit();
  const lang = $('lang');
  const wanted = kit.languages.some((l) => l.code === state.lang) ? state.lang : 'en';
  lang.replaceChildren(...kit.languages.map((l) => option(l.code, l.name, l.code === wanted)));
  state.lang = wanted;
  const [low, high] = kit.sizes;
  const size = $('size');
  const sizes = [];
  for (let n = low; n <= high; n += 1) sizes.push(n);
  const keepSize = Number(size.value) || kit.default_size;
  const chosenSize = sizes.includes(keepSize) && size.dataset.kit === kit.id ? keepSize : kit.default_size;
  size.replaceChildren(...sizes.map((n) => option(n, t('options.size_option', { size: n }), n === chosenSize)));
  size.dataset.kit = kit.id;
  $('size-field').hidden = low === high;
  const cell = $('cell');
  const keepCell = cell.dataset.kit === kit.id ? cell.value : '';
  const presets = kit.presets.map((p) => {
    const key = `options.cell_${p.name}`;
    const text = state.catalog.words.en[key] ? t(key, { mm: p.mm }) : `${p.name} (${p.mm} mm)`;
    return option(p.name, text, p.name === keepCell);
  });
  cell.replaceChildren(
    option('', t('options.cell_kit', { mm: kit.cell_mm }), keepCell === ''),
    ...presets,
    option('custom', t('options.cell_custom'), keepCell === 'custom'),
  );
  cell.dataset.kit = kit.id;
  $('cell-mm-field').hidden = cell.value !== 'custom';
  if (!$('cell-mm').value) $('cell-mm').value = kit.cell_mm;
  renderPuzzles(kit);
}

function renderPuzzles(kit) {
  const puzzles = $('puzzles');
  const keep = puzzles.value;
  const counts = [];
  for (let n = 1; n <= 24; n += 1) counts.push(n);
  puzzles.replaceChildren(
    option('', t('options.puzzles_kit'), keep === ''),
    option('0', t('options.puzzles_none'), keep === '0'),
    ...counts.map((n) => option(String(n), String(n), keep === String(n))),
  );
  const plies = $('plies');
  const keepPlies = plies.value || String(kit.puzzles?.plies ?? 3);
  plies.replaceChildren(...[1, 3, 5].map((n) => option(String(n), t(`options.plies_${n}`), String(n) === keepPlies)));
  plies.disabled = puzzles.value === '' || puzzles.value === '0';
}

function renderFixedOptions() {
  const paper = $('paper');
  const keep = paper.value || 'a4';
  paper.replaceChildren(
    ...state.catalog.papers.map((p) => option(p, PAPER_NAMES[p] || p, p === keep)),
    option('custom', t('options.paper_custom'), keep === 'custom'),
  );
  const printer = $('printer');
  const keepPrinter = printer.value;
  printer.replaceChildren(
    option('', t('options.printer_none'), keepPrinter === ''),
    ...state.catalog.printers.map((p) => option(`kept:${p.name}`, t('options.printer_kept', p), keepPrinter === `kept:${p.name}`)),
    option('measured', t('options.printer_measured'), keepPrinter === 'measured'),
  );
  $('custom-paper').hidden = paper.value !== 'custom';
  $('measured').hidden = printer.value !== 'measured';
  const calibration = new URLSearchParams({ paper: paper.value === 'custom' ? 'a4' : paper.value, lang: state.lang });
  $('calibration').href = `/api/calibration.pdf?${calibration}`;
}

function renderAll() {
  applyWords();
  renderKits();
  renderFixedOptions();
  renderKitOptions();
}

function formValue() {
  const kit = currentKit();
  const form = { kit: kit.id, lang: state.lang, paper: $('paper').value, landscape: $('landscape').checked };
  if (form.paper === 'custom') Object.assign(form, { width: $('width').value, height: $('height').value });
  if (!$('size-field').hidden) form.size = Number($('size').value);
  const cell = $('cell').value;
  if (cell === 'custom') form.cell = $('cell-mm').value;
  else if (cell) form.cell = cell;
  const printer = $('printer').value;
  if (printer.startsWith('kept:')) form.printer = printer.slice(5);
  if (printer === 'measured') Object.assign(form, { across: $('across').value, down: $('down').value });
  if ($('cut').value === 'outline') form.cut = 'outline';
  for (const id of ['players', 'tables']) {
    const value = $(id).value.trim();
    if (value) form[id] = Number(value);
  }
  if ($('puzzles').value !== '') {
    form.puzzles = Number($('puzzles').value);
    if (form.puzzles > 0) form.plies = Number($('plies').value);
  }
  return form;
}

function later(delay) {
  clearTimeout(state.timer);
  state.timer = setTimeout(build, delay);
}

async function post(url, body, type) {
  const response = await fetch(url, { method: 'POST', headers: { 'Content-Type': type }, body });
  let answer = {};
  try { answer = await response.json(); } catch { answer = { error: response.statusText }; }
  return { ok: response.ok, status: response.status, answer };
}

async function build() {
  clearTimeout(state.timer);
  const sequence = ++state.sequence;
  $('status').textContent = t('status.building');
  $('results').classList.add('busy');
  let reply;
  try {
    reply = await post('/api/build', JSON.stringify(formValue()), 'application/json');
  } catch {
    reply = { ok: false, answer: { error: t('status.offline') } };
  }
  if (sequence !== state.sequence) return;
  $('results').classList.remove('busy');
  if (reply.status === 503) {
    $('status').textContent = t('status.busy');
    later(1500);
    return;
  }
  if (!reply.ok) {
    showProblems(t('status.failed'), reply.answer);
    return;
  }
  state.build = reply.answer;
  showBuild(reply.answer);
}

function showProblems(summary, answer) {
  $('status').textContent = summary;
  const box = $('problems');
  const lines = [answer.error, ...(answer.diagnostics || [])].filter(Boolean);
  box.replaceChildren(...lines.map((line, i) => {
    const element = document.createElement(i === 0 && !answer.diagnostics ? 'p' : 'pre');
    element.className = i === 0 && !answer.diagnostics ? 'problem' : 'diagnostic';
    element.textContent = line;
    return element;
  }));
  box.hidden = false;
  for (const id of ['downloads', 'notes', 'player-files', 'host-files']) $(id).replaceChildren();
  $('host').hidden = true;
}

function link(href, name, text, main, id) {
  const a = document.createElement('a');
  Object.assign(a, { href, download: name, className: main ? 'download main' : 'download' });
  if (id) a.id = id;
  a.textContent = text;
  return a;
}

function sheetBlock(file) {
  const block = document.createElement('article');
  block.className = 'sheet';
  block.dataset.file = file.file;
  const head = document.createElement('div');
  head.className = 'sheet-head';
  const words = document.createElement('div');
  const title = document.createElement('h3');
  title.textContent = file.title || file.file;
  const facts = document.createElement('p');
  facts.className = 'facts';
  facts.textContent = `${file.file} · ${t('results.pages', { pages: file.pages })} · ${t('results.sheets', { sheets: file.sheets })}`;
  words.append(title, facts);
  head.append(words, link(file.download, file.download_name, t('results.download', { file: file.download_name })));
  const pages = document.createElement('div');
  pages.className = 'pages';
  pages.append(...file.previews.map((src, index) => {
    const a = document.createElement('a');
    Object.assign(a, { href: src, target: '_blank', rel: 'noopener' });
    const picture = document.createElement('img');
    picture.src = src;
    picture.alt = t('results.preview_alt', { sheet: file.title || file.file, page: index + 1, pages: file.pages });
    picture.loading = index > 3 ? 'lazy' : 'eager';
    a.append(picture);
    return a;
  }));
  block.append(head, pages);
  return block;
}

function showBuild(build) {
  const players = build.files.filter((f) => !f.host);
  const host = build.files.filter((f) => f.host);
  const pages = build.files.reduce((sum, f) => sum + f.pages, 0);
  $('status').textContent = t('status.ready', { files: build.files.length, pages });
  $('problems').hidden = true;
  const downloads = [link(build.players_zip, build.players_zip_name, t('results.download_players'), true, 'download-players')];
  if (build.print_all) {
    downloads.push(link(build.print_all.download, build.print_all.download_name, t('results.download_print_all'), true, 'download-print-all'));
  }
  for (const file of host) downloads.push(link(file.download, file.download_name, t('results.download_host'), false, 'download-host'));
  $('downloads').replaceChildren(...downloads);
  const notes = [...build.notes];
  if (build.fell_back.length) notes.push(t('results.fell_back', { keys: build.fell_back.join(', ') }));
  $('notes').replaceChildren(...notes.map((n) => { const p = document.createElement('p'); p.textContent = n; return p; }));
  const heading = document.createElement('h3');
  heading.textContent = t('results.players');
  $('player-files').replaceChildren(heading, ...players.map(sheetBlock));
  $('host-files').replaceChildren(...host.map(sheetBlock));
  $('host').hidden = host.length === 0;
  document.body.dataset.build = build.id;
  document.body.dataset.name = build.name;
}

async function upload(file) {
  const status = $('upload-status');
  status.textContent = t('status.building');
  let reply;
  try {
    const url = `/api/upload?${new URLSearchParams({ name: file.name })}`;
    reply = await post(url, await file.arrayBuffer(), 'application/zip');
  } catch {
    reply = { ok: false, answer: { error: t('status.offline') } };
  }
  if (!reply.ok) {
    const lines = [t('kit.own_refused'), reply.answer.error, ...(reply.answer.diagnostics || [])];
    status.replaceChildren(...lines.filter(Boolean).map((line, i) => {
      const element = document.createElement(i < 2 ? 'p' : 'pre');
      element.className = i < 2 ? 'problem' : 'diagnostic';
      element.textContent = line;
      return element;
    }));
    return;
  }
  const kit = reply.answer;
  state.kits = state.kits.filter((k) => k.id !== kit.id).concat(kit);
  const p = document.createElement('p');
  p.textContent = t('kit.own_loaded', { id: kit.kit });
  status.replaceChildren(p);
  renderKits();
  document.querySelector(`input[name="kit"][value="${CSS.escape(kit.id)}"]`).checked = true;
  renderKitOptions();
  build();
}

function wire() {
  const form = $('form');
  form.addEventListener('submit', (event) => { event.preventDefault(); build(); });
  form.addEventListener('change', (event) => {
    const target = event.target;
    if (target.id === 'upload') {
      if (target.files[0]) upload(target.files[0]);
      target.value = '';
      return;
    }
    if (target.name === 'kit') { renderKitOptions(); renameKits(); }
    if (target.id === 'size') renameKits();
    if (target.id === 'lang') { state.lang = target.value; renderAll(); }
    if (['paper', 'printer'].includes(target.id)) renderFixedOptions();
    if (target.id === 'cell') $('cell-mm-field').hidden = target.value !== 'custom';
    if (target.id === 'puzzles') renderPuzzles(currentKit());
    later(target.matches('input[inputmode]') ? 400 : 0);
  });
  form.addEventListener('input', (event) => {
    if (event.target.matches('input[inputmode]')) later(700);
  });
}

function firstLanguage() {
  const offered = state.catalog.languages.map((l) => l.code);
  const asked = (navigator.languages || [navigator.language || 'en']).map((l) => l.toLowerCase().split('-')[0]);
  return asked.find((l) => offered.includes(l)) || 'en';
}

async function start() {
  const response = await fetch('/api/catalog');
  state.catalog = await response.json();
  state.kits = state.catalog.kits.slice();
  const asked = new URLSearchParams(location.search).get('lang');
  state.lang = state.catalog.words[asked] ? asked : firstLanguage();
  wire();
  renderAll();
  build();
}

start().catch(() => { $('status').textContent = 'tablekit: the page could not start.'; });
