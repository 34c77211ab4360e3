// The page of `roadbook serve`: the book's route on a map, its rows as printed, its profile, and
// every change sent to the server, which makes it through the same operations as the command line.
// The page keeps no book of its own: it shows what GET /api/book says, polled every second.
'use strict';

(() => {
  const $ = (id) => document.getElementById(id);

  // ---- state ---------------------------------------------------------------------------------

  let book = null;          // the last GET /api/book
  let etag = null;          // its ETag, sent back as If-None-Match
  let firstView = true;     // fit the map to the route once, then keep the reader's view
  let editing = null;       // {id, field} while a row's cell has the focus
  let rowsStale = false;    // a new revision came while editing: redraw the rows after
  let selectedRowId = null;
  let nearestRowId = null;  // the row nearest the map's last click
  let routeDistances = [];  // cumulative metres along book.route, scaled to the profile's length
  let pageNumber = 1;

  // The token came in the address of the first page; the cookie carries it from now on, so it
  // leaves the address bar (and the history) at once.
  if (new URLSearchParams(location.search).has('token')) {
    const params = new URLSearchParams(location.search);
    params.delete('token');
    const query = params.toString();
    history.replaceState(null, '', location.pathname + (query ? '?' + query : ''));
  }

  // ---- talking to the server -----------------------------------------------------------------

  /** Shows one line in the status bar; an error stays red until the next message. */
  function say(message, isError) {
    const bar = $('status');
    bar.textContent = message;
    bar.classList.toggle('error', !!isError);
  }

  /** The one line a refused request answered: the JSON `error`, or its plain text. */
  async function errorLine(response) {
    const text = await response.text();
    try {
      const body = JSON.parse(text);
      if (body && typeof body.error === 'string') return body.error;
    } catch (_) { /* a plain-text body, as for 403 */ }
    return (text.split('\n')[0] || response.statusText || 'HTTP ' + response.status).trim();
  }

  /**
   * POSTs `body` as JSON to `path`, shows the answer's message (or its error) and polls at once
   * so the change shows. Returns the answer, or null when it was refused.
   */
  async function post(path, body) {
    let response;
    try {
      response = await fetch(path, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json' },
        body: body === undefined ? '{}' : JSON.stringify(body),
      });
    } catch (error) {
      legsAwaited = null;
      say('The server does not answer: ' + error.message, true);
      return null;
    }
    if (!response.ok) {
      legsAwaited = null;
      say(await errorLine(response), true);
      return null;
    }
    const answer = await response.json();
    let line = answer.message || 'Done';
    if (Array.isArray(answer.askedLegs) && answer.askedLegs.length > 0) {
      line += ' — asked the engine again for leg' + (answer.askedLegs.length > 1 ? 's ' : ' ') +
        answer.askedLegs.join(', ');
    }
    say(line, false);
    document.body.dataset.lastAnswer = JSON.stringify(answer);
    if (book && Array.isArray(answer.legs) && Array.isArray(answer.handles)) {
      // A handle's change answers with the drawing as it now is: its legs are drawn at once; the
      // rows, the profile and the status follow with the poll.
      book.legs = answer.legs;
      book.handles = answer.handles;
      if (Array.isArray(answer.warnings)) {
        book.warnings = (book.warnings || []).filter((w) => !w.leg).concat(answer.warnings);
      }
      drawRoute();
      drawHandles();
      drawWarnings();
      if (legsAwaited !== null) {
        legsAwaited = null;
        markAfterPaint('roadbook:legs-shown');
      }
    }
    await poll();
    return answer;
  }

  /** GET /api/book unless the revision is the one shown (304); redraws on a new one. */
  let polling = false;
  async function poll() {
    if (polling) return;
    polling = true;
    try {
      const headers = etag ? { 'If-None-Match': etag } : {};
      const response = await fetch('/api/book', { credentials: 'same-origin', headers, cache: 'no-store' });
      if (response.status === 304) return;
      if (!response.ok) {
        say(await errorLine(response), true);
        return;
      }
      etag = response.headers.get('ETag');
      book = await response.json();
      draw();
    } catch (error) {
      say('The server does not answer: ' + error.message, true);
    } finally {
      polling = false;
    }
  }

  // ---- numbers -------------------------------------------------------------------------------

  function distance(metres) {
    const mi = book && book.units === 'mi';
    const value = mi ? metres / 1609.344 : metres / 1000;
    return value.toFixed(2);
  }

  /** Metres between two [lat, lon] on a sphere: enough to find the nearest point or row. */
  function metresBetween(a, b) {
    const r = 6371008.8, rad = Math.PI / 180;
    const dLat = (b[0] - a[0]) * rad, dLon = (b[1] - a[1]) * rad;
    const h = Math.sin(dLat / 2) ** 2 + Math.cos(a[0] * rad) * Math.cos(b[0] * rad) * Math.sin(dLon / 2) ** 2;
    return 2 * r * Math.asin(Math.min(1, Math.sqrt(h)));
  }

  /** The index of the point of `points` ([lat, lon]) nearest `at`. */
  function nearestIndex(points, at) {
    let best = -1, bestD = Infinity;
    const cos = Math.cos(at[0] * Math.PI / 180);
    for (let i = 0; i < points.length; i++) {
      const dy = points[i][0] - at[0], dx = (points[i][1] - at[1]) * cos;
      const d = dy * dy + dx * dx;
      if (d < bestD) { bestD = d; best = i; }
    }
    return best;
  }

  /** Distances along the simplified route, stretched to the profile's length when there is one. */
  function measureRoute() {
    routeDistances = [];
    const route = book.route || [];
    let sum = 0;
    for (let i = 0; i < route.length; i++) {
      if (i > 0) sum += metresBetween(route[i - 1], route[i]);
      routeDistances.push(sum);
    }
    const profile = book.profile || [];
    const length = profile.length ? profile[profile.length - 1][0] : 0;
    if (sum > 0 && length > 0) {
      const k = length / sum;
      routeDistances = routeDistances.map((d) => d * k);
    }
  }

  function alongRoute(latlng) {
    const route = book.route || [];
    if (!route.length) return null;
    return routeDistances[nearestIndex(route, [latlng.lat, latlng.lng])];
  }

  // ---- the map -------------------------------------------------------------------------------

  const map = L.map('map', { preferCanvas: false, zoomControl: true });
  map.setView([42.5, 1.55], 11);
  // The map's box changes when the warnings' list or the profile come and go: Leaflet is told, so
  // a click still lands on the place under the pointer.
  new ResizeObserver(() => map.invalidateSize({ pan: false })).observe($('map'));
  const roadRenderer = L.canvas({ padding: 0.2 });
  const roadLayer = L.layerGroup().addTo(map);
  const routeLayer = L.layerGroup().addTo(map);
  const handleLayer = L.layerGroup().addTo(map);
  const warningLayer = L.layerGroup().addTo(map);
  const rowMarker = L.circleMarker([0, 0], { radius: 8, color: '#d0021b', weight: 3, fill: false });
  // The tile server of `roadbook serve --tiles`, under the roads, when there is one: without it
  // the page fetches nothing from outside (the server's Content-Security-Policy lets images come
  // from that server only, and from none without it).
  fetch('/api/settings', { credentials: 'same-origin' })
    .then(async (response) => {
      if (!response.ok) throw new Error(await errorLine(response));
      const settings = await response.json();
      if (settings.tiles) L.tileLayer(settings.tiles, { maxZoom: 19 }).addTo(map);
    })
    .catch((error) => say('The map settings could not be read: ' + error.message, true));

  const roadStyles = {
    motorway: { color: '#c0503c', weight: 4 },
    tarmac: { color: '#7d7d7d', weight: 2.5 },
    gravel: { color: '#b08a4a', weight: 2 },
    track: { color: '#8a6d3b', weight: 1.5, dashArray: '4 3' },
    path: { color: '#6b8e23', weight: 1, dashArray: '1 4' },
  };
  const legDashes = { road: null, straight: '10 7', asDrawn: '2 6' };
  const legColours = { ok: '#1f5fbf', waiting: '#9a9a9a', failed: '#d0021b' };

  /** The roads of the view from GET /api/roads, drawn as the map's background. */
  let roadsAsked = 0;
  async function loadRoads() {
    const asked = ++roadsAsked;
    if (map.getZoom() < 10) { roadLayer.clearLayers(); return; }
    const b = map.getBounds();
    const query = new URLSearchParams({
      south: b.getSouth().toFixed(5), west: b.getWest().toFixed(5),
      north: b.getNorth().toFixed(5), east: b.getEast().toFixed(5),
    });
    try {
      const response = await fetch('/api/roads?' + query, { credentials: 'same-origin' });
      if (!response.ok) { say(await errorLine(response), true); return; }
      const body = await response.json();
      if (asked !== roadsAsked) return;  // the view moved on meanwhile
      roadLayer.clearLayers();
      for (const road of body.roads || []) {
        const style = roadStyles[road.class] || roadStyles.track;
        L.polyline(road.line, Object.assign({ renderer: roadRenderer, interactive: false }, style)).addTo(roadLayer);
      }
    } catch (error) {
      say('The roads could not be read: ' + error.message, true);
    }
  }
  let roadsTimer = null;
  map.on('moveend', () => { clearTimeout(roadsTimer); roadsTimer = setTimeout(loadRoads, 250); });

  function drawRoute() {
    routeLayer.clearLayers();
    const legs = book.legs || [];
    if (!legs.length) {
      if ((book.route || []).length) {
        L.polyline(book.route, { color: legColours.ok, weight: 4 }).addTo(routeLayer);
      }
      return;
    }
    legs.forEach((leg, i) => {
      const number = i + 1;
      const line = L.polyline(leg.line, {
        color: legColours[leg.state] || legColours.ok,
        weight: 5,
        dashArray: legDashes[leg.kind] || null,
        className: 'leg leg-' + number,
      }).addTo(routeLayer);
      const kindWords = { road: 'by the road', straight: 'straight', asDrawn: 'as drawn' }[leg.kind] || leg.kind;
      let tip = 'Leg ' + number + ', ' + kindWords;
      if (leg.state === 'waiting') tip += ' (waiting for the engine)';
      if (leg.state === 'failed') tip += ': ' + (leg.message || 'the engine found no way');
      line.bindTooltip(tip, { sticky: true });
      line.on('click', (event) => {
        L.DomEvent.stopPropagation(event);
        // A click on the route is a click on the map too: its nearest row comes into the table.
        showNearestRow(event.latlng);
        legMenu(number, event.latlng);
      });
    });
  }

  /**
   * The warnings: each with a place as a marker there (its words in its tooltip), and all of them
   * listed under the profile; a listed one with a place brings it into view and opens its tooltip.
   */
  function drawWarnings() {
    warningLayer.clearLayers();
    const warnings = book.warnings || [];
    const items = warnings.map((warning, i) => {
      const li = document.createElement('li');
      li.textContent = (warning.leg ? 'Leg ' + warning.leg + ': ' : '') + warning.text;
      li.dataset.warning = String(i);
      if (typeof warning.lat !== 'number' || typeof warning.lon !== 'number') return li;
      const icon = L.divIcon({ className: 'warning-marker', html: '!', iconSize: [20, 20], iconAnchor: [10, 30] });
      // Under the handles, so a handle at the same place is still dragged.
      const marker = L.marker([warning.lat, warning.lon], { icon, zIndexOffset: -1000, keyboard: false }).addTo(warningLayer);
      const words = document.createElement('span');
      words.textContent = warning.text;
      marker.bindTooltip(words, { direction: 'top', offset: [0, -30] });
      if (marker.getElement()) marker.getElement().dataset.warning = String(i);
      li.classList.add('placed');
      li.title = 'Show it on the map';
      li.addEventListener('click', () => {
        map.panTo([warning.lat, warning.lon]);
        marker.openTooltip();
      });
      return li;
    });
    $('warnings').hidden = items.length === 0;
    $('warnings').replaceChildren(...items);
  }

  function button(label, action, className) {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = label;
    if (className) b.className = className;
    b.addEventListener('click', action);
    return b;
  }

  /** A click on a leg: split it, or add a note there; the nearest row is shown either way. */
  function legMenu(number, latlng) {
    showNearestRow(latlng);
    const menu = document.createElement('div');
    menu.className = 'popup-menu';
    const popup = L.popup().setLatLng(latlng);
    menu.append(
      button('Split leg ' + number, () => { map.closePopup(popup); post('/api/handles', { op: 'split', leg: number }); }, 'split-leg'),
      button('Add a note here', () => { map.closePopup(popup); addNote(latlng); }, 'add-note'),
      button('Add a handle here', () => { map.closePopup(popup); post('/api/handles', { op: 'add', lat: latlng.lat, lon: latlng.lng }); }, 'add-handle'),
    );
    popup.setContent(menu).openOn(map);
  }

  function addNote(latlng) {
    const text = prompt('Words of the note');
    if (text === null || !text.trim()) return;
    post('/api/notes', { op: 'add', lat: latlng.lat, lon: latlng.lng, text: text.trim() });
  }

  map.on('click', (event) => {
    if (!book) return;
    showNearestRow(event.latlng);
    const menu = document.createElement('div');
    menu.className = 'popup-menu';
    const popup = L.popup().setLatLng(event.latlng);
    menu.append(
      button('Add a note here', () => { map.closePopup(popup); addNote(event.latlng); }, 'add-note'),
      button('Add a handle here', () => { map.closePopup(popup); post('/api/handles', { op: 'add', lat: event.latlng.lat, lon: event.latlng.lng }); }, 'add-handle'),
    );
    popup.setContent(menu).openOn(map);
  });

  // The handles are drawn again only when they changed, and never while one is dragged: a poll
  // that redrew them under the pointer would drop the drag.
  let drawnHandles = null;   // the handles drawn, as JSON
  let draggingHandle = false;

  function drawHandles() {
    const handles = book.handles || [];
    const key = JSON.stringify(handles);
    if (draggingHandle || key === drawnHandles) return;
    drawnHandles = key;
    handleLayer.clearLayers();
    for (const handle of handles) {
      const icon = L.divIcon({
        className: 'handle-icon' + (handle.name ? ' named' : ''),
        html: String(handle.index),
        iconSize: [22, 22],
      });
      const marker = L.marker([handle.lat, handle.lon], {
        icon, draggable: true, autoPan: true, title: handle.name || 'Handle ' + handle.index,
      }).addTo(handleLayer);
      if (marker.getElement()) marker.getElement().dataset.handle = handle.index;
      marker.on('dragstart', () => { draggingHandle = true; });
      marker.on('dragend', () => {
        draggingHandle = false;
        drawnHandles = null;  // the marker is no longer where the book has the handle
        const at = marker.getLatLng();
        legsAwaited = true;
        performance.mark('roadbook:drag-start');
        post('/api/handles', { op: 'move', index: handle.index, lat: at.lat, lon: at.lng }).then((answer) => {
          if (!answer) drawHandles();  // refused: the handle goes back where the book has it
        });
      });
      marker.bindPopup(() => handleMenu(handle));
      // A handle is a place on the route: a click on it brings its nearest row into the table too.
      marker.on('click', (event) => showNearestRow(event.latlng));
    }
  }

  /** A handle's menu: remove it, make it a course note, set the kind of its legs. */
  function handleMenu(handle) {
    const menu = document.createElement('div');
    menu.className = 'popup-menu';
    const title = document.createElement('strong');
    title.textContent = 'Handle ' + handle.index + (handle.name ? ': ' + handle.name : '');
    const kind = document.createElement('select');
    kind.className = 'leg-kind';
    for (const [value, label] of [['', 'Its legs go…'], ['road', 'by the road'], ['straight', 'straight'], ['asDrawn', 'as drawn']]) {
      const option = document.createElement('option');
      option.value = value;
      option.textContent = label;
      kind.append(option);
    }
    kind.addEventListener('change', () => {
      if (!kind.value) return;
      map.closePopup();
      post('/api/handles', { op: 'kind', index: handle.index, kind: kind.value });
    });
    const position = document.createElement('input');
    position.type = 'number';
    position.min = '1';
    position.max = String((book.handles || []).length);
    position.value = String(handle.index);
    position.className = 'position';
    position.title = 'Its place in the route';
    const reorder = button('Make it handle…', () => {
      const to = Number(position.value);
      if (!Number.isInteger(to) || to === handle.index) return;
      map.closePopup();
      post('/api/handles', { op: 'reorder', index: handle.index, to });
    }, 'reorder-handle');
    const place = document.createElement('div');
    place.className = 'reorder';
    place.append(reorder, position);
    menu.append(
      title,
      button('Remove', () => { map.closePopup(); post('/api/handles', { op: 'remove', index: handle.index }); }, 'remove-handle'),
      button('Take its note off', () => { map.closePopup(); post('/api/handles', { op: 'unnote', index: handle.index }); }, 'unnote-handle'),
      place,
      button('Make it a course note…', () => {
        const text = prompt('Words of the course note', handle.name || '');
        if (text === null || !text.trim()) return;
        map.closePopup();
        post('/api/handles', { op: 'note', index: handle.index, text: text.trim() });
      }, 'note-handle'),
      kind,
    );
    return menu;
  }

  // ---- the rows ------------------------------------------------------------------------------

  const waypointTypes = ['', 'WPM', 'WPV', 'WPS', 'WPE', 'WPC', 'WPN', 'WPP', 'DSS', 'ASS', 'CP', 'DZ', 'FZ'];

  function cell(tr, className, text) {
    const td = document.createElement('td');
    if (className) td.className = className;
    if (text !== undefined) td.textContent = text;
    tr.append(td);
    return td;
  }

  /** One row of the table as printed, with its editable cells. */
  function rowElement(row) {
    const tr = document.createElement('tr');
    tr.dataset.id = row.id;
    if (row.id === selectedRowId) tr.classList.add('selected');
    if (row.id === nearestRowId) tr.classList.add('nearest');
    cell(tr, 'num number', row.marker ? row.number + ' ' + row.marker : String(row.number));
    cell(tr, 'num total', distance(row.total));
    cell(tr, 'num partial', distance(row.partial));
    const tulip = cell(tr, 'tulip');
    const img = document.createElement('img');
    img.loading = 'lazy';
    img.decoding = 'async';
    img.alt = '';
    img.src = '/api/tulip/' + row.id + '.svg?revision=' + book.revision;
    img.addEventListener('error', () => { img.hidden = true; });  // a row without a tulip: 404
    tulip.append(img);

    const words = cell(tr, 'words');
    const editable = document.createElement('div');
    editable.contentEditable = 'true';
    editable.spellcheck = true;
    editable.className = 'text';
    editable.textContent = row.text;
    editable.dataset.saved = row.text;
    words.append(editable);

    const danger = document.createElement('select');
    danger.className = 'danger';
    for (let d = 0; d <= 3; d++) {
      const option = document.createElement('option');
      option.value = String(d);
      option.textContent = d === 0 ? '–' : '!'.repeat(d);
      danger.append(option);
    }
    danger.value = String(row.danger || 0);
    cell(tr, 'danger-cell').append(danger);

    const symbols = document.createElement('input');
    symbols.className = 'symbols';
    symbols.value = (row.symbols || []).join(' ');
    symbols.dataset.saved = symbols.value;
    symbols.title = 'Symbols by name, separated by spaces';
    cell(tr, 'symbols-cell').append(symbols);

    const type = document.createElement('select');
    type.className = 'type';
    for (const t of waypointTypes) {
      const option = document.createElement('option');
      option.value = t;
      option.textContent = t || '–';
      type.append(option);
    }
    type.value = row.waypointType || '';
    cell(tr, 'type-cell').append(type);

    cell(tr, 'num cap', row.cap === null || row.cap === undefined ? '' : String(row.cap).padStart(3, '0') + '°');
    const remove = button('✕', () => post('/api/notes', { op: 'remove', row: '#' + row.id }), 'remove-row');
    remove.title = 'Remove this row';
    const more = button('⋯', () => rowDialog(row), 'more-row');
    more.title = 'More: marker, CAP, reset, place, speed, tulip, a new note here';
    cell(tr, 'actions').append(more, remove);
    return tr;
  }

  // A book may have thousands of rows: only those in view (and `rowsAround` on each side) are in
  // the table, between two empty rows as tall as the rows left out, so the table scrolls as if
  // they were all there. Every row is as tall as the first drawn (a tulip's height; long words
  // scroll inside their cell).
  const rowsAround = 30;
  let rowHeight = 0;           // measured on the first row drawn
  let drawnRows = new Map();   // row id → its <tr>, for the rows in the table now
  let drawnSpan = null;        // [first, last) indices of book.rows in the table

  function rowsInView() {
    const wrap = $('rows-wrap');
    const rows = book.rows || [];
    const height = rowHeight || 70;
    const top = Math.max(0, wrap.scrollTop - $('rows').tHead.offsetHeight);
    const first = Math.max(0, Math.floor(top / height) - rowsAround);
    const last = Math.min(rows.length, Math.ceil((top + wrap.clientHeight) / height) + rowsAround);
    return [first, last];
  }

  function spacer(rows) {
    const tr = document.createElement('tr');
    tr.className = 'spacer';
    const td = document.createElement('td');
    td.colSpan = $('rows').tHead.rows[0].cells.length;
    td.style.height = (rows * (rowHeight || 70)) + 'px';
    tr.append(td);
    return tr;
  }

  /** Puts the rows in view in the table; `fresh` makes every row again (a new revision). */
  function drawRowsInView(fresh) {
    const rows = book.rows || [];
    const [first, last] = rowsInView();
    if (!fresh && drawnSpan && drawnSpan[0] === first && drawnSpan[1] === last) return;
    const kept = fresh ? new Map() : drawnRows;
    drawnRows = new Map();
    const fragment = document.createDocumentFragment();
    fragment.append(spacer(first));
    for (let i = first; i < last; i++) {
      const tr = kept.get(rows[i].id) || rowElement(rows[i]);
      drawnRows.set(rows[i].id, tr);
      fragment.append(tr);
    }
    fragment.append(spacer(rows.length - last));
    $('rows').tBodies[0].replaceChildren(fragment);
    drawnSpan = [first, last];
    $('rows').dataset.rowCount = String(rows.length);
    if (!rowHeight && last > first) {
      rowHeight = drawnRows.get(rows[first].id).getBoundingClientRect().height || 70;
      drawRowsInView(true);  // the spacers again, at the measured height
    }
  }

  /** Brings row `index` of book.rows into the table and the view; its <tr>. */
  function scrollToRow(index) {
    const wrap = $('rows-wrap');
    const height = rowHeight || 70;
    const y = $('rows').tHead.offsetHeight + index * height;
    if (y < wrap.scrollTop || y + height > wrap.scrollTop + wrap.clientHeight) {
      wrap.scrollTop = Math.max(0, y - wrap.clientHeight / 2);
    }
    if (!editing) drawRowsInView(false);
    return drawnRows.get((book.rows || [])[index].id) || null;
  }

  let scrollFrame = null;
  $('rows-wrap').addEventListener('scroll', () => {
    if (scrollFrame !== null || !book) return;
    scrollFrame = requestAnimationFrame(() => {
      scrollFrame = null;
      // A cell being typed in stays where it is: its row is not taken out under the cursor.
      if (!editing) drawRowsInView(false);
    });
  });

  function drawRows() {
    drawRowsInView(true);
    rowsStale = false;

    const removed = book.removed || [];
    $('removed-box').hidden = removed.length === 0;
    $('removed-count').textContent = String(removed.length);
    const list = document.createDocumentFragment();
    for (const gone of removed) {
      const li = document.createElement('li');
      li.dataset.id = gone.id;
      li.append(document.createTextNode(gone.text + ' '),
        button('Restore', () => post('/api/notes', { op: 'restore', row: '#' + gone.id }), 'restore-row'));
      list.append(li);
    }
    $('removed').replaceChildren(list);
  }

  // ---- a row's other changes (the dialog) ------------------------------------------------------

  const roadClasses = ['motorway', 'tarmac', 'gravel', 'track', 'path', 'off-piste'];
  for (const id of ['rd-road-class', 'rd-class']) {
    for (const name of roadClasses) {
      const option = document.createElement('option');
      option.value = name;
      option.textContent = name;
      $(id).append(option);
    }
    $(id).value = 'track';
  }
  let dialogRow = null;

  /** The dialog of `row`'s other changes, each posted as `roadbook note` makes it. */
  function rowDialog(row) {
    dialogRow = row;
    $('row-dialog-name').textContent = row.marker ? row.number + ' (' + row.marker + ')' : String(row.number);
    $('rd-marker').value = row.marker || '';
    $('rd-cap').value = row.cap === null || row.cap === undefined ? '' : String(row.cap);
    $('rd-reset').checked = !!row.reset;
    for (const unit of document.querySelectorAll('#row-dialog .unit')) unit.textContent = book.units === 'mi' ? 'mi' : 'km';
    $('rd-to').value = distance(row.total);
    $('row-dialog').showModal();
  }

  /** Posts `change` for the dialog's row, and closes the dialog when it was taken. */
  function postRow(change) {
    const row = dialogRow;
    if (!row) return;
    post('/api/notes', Object.assign({ row: '#' + row.id }, change)).then((answer) => {
      if (answer) $('row-dialog').close();
    });
  }
  const numberOf = (id) => ($(id).value.trim() === '' ? null : Number($(id).value));
  $('rd-save').addEventListener('click', () => {
    const change = { op: 'edit', marker: $('rd-marker').value.trim(), reset: $('rd-reset').checked };
    if (numberOf('rd-cap') !== null) change.cap = numberOf('rd-cap');
    postRow(change);
  });
  $('rd-move-to').addEventListener('click', () => {
    const to = numberOf('rd-to');
    if (to !== null) postRow({ op: 'move', to: to * (book.units === 'mi' ? 1609.344 : 1000) });
  });
  $('rd-move-by').addEventListener('click', () => {
    const by = numberOf('rd-by');
    if (by !== null) postRow({ op: 'move', by });
  });
  $('rd-set-zone').addEventListener('click', () => postRow({ op: 'edit', speed: numberOf('rd-speed'), zone: $('rd-zone').value }));
  $('rd-set-average').addEventListener('click', () => postRow({ op: 'edit', targetSpeed: numberOf('rd-average') }));
  $('rd-add-road').addEventListener('click', () =>
    postRow({ op: 'tulip', edit: 'addRoad', angle: numberOf('rd-road-angle'), class: $('rd-road-class').value }));
  $('rd-remove-road').addEventListener('click', () => postRow({ op: 'tulip', edit: 'removeRoad', road: numberOf('rd-road') }));
  $('rd-set-class').addEventListener('click', () =>
    postRow({ op: 'tulip', edit: 'class', road: numberOf('rd-road'), class: $('rd-class').value }));
  $('rd-exit-class').addEventListener('click', () => postRow({ op: 'tulip', edit: 'class', class: $('rd-class').value }));
  $('rd-set-exit').addEventListener('click', () => postRow({ op: 'tulip', edit: 'exit', angle: numberOf('rd-exit') }));
  $('rd-tulip-reset').addEventListener('click', () => postRow({ op: 'tulip', edit: 'reset' }));
  $('rd-add-note').addEventListener('click', () => {
    const text = $('rd-new-words').value.trim();
    if (!text || !dialogRow) return;
    post('/api/notes', { op: 'add', atRow: '#' + dialogRow.id, text }).then((answer) => {
      if (answer) { $('rd-new-words').value = ''; $('row-dialog').close(); }
    });
  });
  $('restore-all').addEventListener('click', () => post('/api/notes', { op: 'restore', all: true }));

  function rowById(id) { return (book.rows || []).find((r) => r.id === id); }
  function rowOf(element) {
    const tr = element.closest('tr[data-id]');
    return tr ? Number(tr.dataset.id) : null;
  }

  /** Saves what changed in a row's cell: the server answers, then the next poll redraws. */
  function saveEdit(target) {
    const id = rowOf(target);
    if (id === null) return;
    const change = { op: 'edit', row: '#' + id };
    if (target.classList.contains('text')) {
      const text = target.textContent.replace(/\s+/g, ' ').trim();
      if (text === target.dataset.saved) return;
      target.dataset.saved = text;
      change.text = text;
    } else if (target.classList.contains('danger')) {
      change.danger = Number(target.value);
    } else if (target.classList.contains('type')) {
      change.type = target.value;
    } else if (target.classList.contains('symbols')) {
      const before = new Set(target.dataset.saved.split(/[\s,]+/).filter(Boolean));
      const after = new Set(target.value.split(/[\s,]+/).filter(Boolean));
      const diff = [...after].filter((s) => !before.has(s)).map((s) => '+' + s)
        .concat([...before].filter((s) => !after.has(s)).map((s) => '-' + s));
      if (!diff.length) return;
      target.dataset.saved = [...after].join(' ');
      change.symbols = diff.join(',');
    } else {
      return;
    }
    const tr = target.closest('tr');
    tr.classList.add('saving');
    post('/api/notes', change).then((answer) => {
      // Refused: the row goes back to what the book has (the refusal stays in the status bar).
      if (!answer && !editing && book) drawRows();
      else tr.classList.remove('saving');
    });
  }

  const rowsTable = $('rows');
  rowsTable.addEventListener('focusin', (event) => {
    // Only a cell being typed in holds the redraw back; a focused button does not.
    const id = event.target.matches('.text, input') ? rowOf(event.target) : null;
    if (id !== null) editing = { id, field: event.target.className };
  });
  rowsTable.addEventListener('focusout', (event) => {
    if (event.target.classList.contains('text') || event.target.classList.contains('symbols')) saveEdit(event.target);
    editing = null;
    // A revision that came while editing is drawn once the cell is left.
    setTimeout(() => { if (!editing && rowsStale && book) drawRows(); }, 0);
  });
  rowsTable.addEventListener('change', (event) => {
    if (event.target.matches('select')) saveEdit(event.target);
  });
  rowsTable.addEventListener('keydown', (event) => {
    const t = event.target;
    if (event.key === 'Enter' && (t.classList.contains('text') || t.classList.contains('symbols'))) {
      event.preventDefault();
      t.blur();
    } else if (event.key === 'Escape' && t.classList.contains('text')) {
      t.textContent = t.dataset.saved;
      t.blur();
    } else if (event.key === 'Escape' && t.classList.contains('symbols')) {
      t.value = t.dataset.saved;
      t.blur();
    }
  });
  rowsTable.addEventListener('click', (event) => {
    const id = rowOf(event.target);
    if (id === null || event.target.matches('button')) return;
    selectRow(id, !event.target.matches('[contenteditable], input, select'));
  });
  rowsTable.addEventListener('mouseover', (event) => {
    const id = rowOf(event.target);
    const row = id === null ? null : rowById(id);
    if (row) profileCursor(row.total);
  });

  /** Marks a row; `pan` also brings its place into the map's view. */
  function selectRow(id, pan) {
    selectedRowId = id;
    for (const tr of rowsTable.querySelectorAll('tr.selected')) tr.classList.remove('selected');
    const index = (book.rows || []).findIndex((r) => r.id === id);
    const tr = index < 0 ? null : scrollToRow(index);
    if (tr) tr.classList.add('selected');
    const row = rowById(id);
    if (!row) return;
    rowMarker.setLatLng([row.lat, row.lon]).addTo(map);
    if (pan) map.panTo([row.lat, row.lon]);
    profileCursor(row.total);
  }

  function showNearestRow(latlng) {
    const rows = book.rows || [];
    if (!rows.length) return;
    const i = nearestIndex(rows.map((r) => [r.lat, r.lon]), [latlng.lat, latlng.lng]);
    nearestRowId = rows[i].id;
    for (const tr of rowsTable.querySelectorAll('tr.nearest')) tr.classList.remove('nearest');
    const tr = scrollToRow(i);
    if (tr) tr.classList.add('nearest');
  }

  // ---- the profile ---------------------------------------------------------------------------

  const svgNS = 'http://www.w3.org/2000/svg';
  let profileScale = null;  // metres → x in the SVG's own units

  function drawProfile() {
    const svg = $('profile');
    svg.replaceChildren();
    const profile = book.profile || [];
    profileScale = null;
    if (profile.length < 2) {
      $('profile-label').textContent = 'No elevation profile: the book has no terrain';
      return;
    }
    const width = 1000, height = 100;
    const length = profile[profile.length - 1][0] || 1;
    let low = Infinity, high = -Infinity;
    for (const [, h] of profile) { low = Math.min(low, h); high = Math.max(high, h); }
    const span = Math.max(high - low, 1);
    const x = (d) => (d / length) * width;
    const y = (h) => height - 4 - ((h - low) / span) * (height - 8);
    profileScale = x;
    svg.setAttribute('viewBox', '0 0 ' + width + ' ' + height);
    const points = ['0,' + height].concat(profile.map(([d, h]) => x(d).toFixed(1) + ',' + y(h).toFixed(1)), width + ',' + height);
    const ground = document.createElementNS(svgNS, 'polygon');
    ground.setAttribute('class', 'ground');
    ground.setAttribute('points', points.join(' '));
    svg.append(ground);
    for (const handle of book.handles || []) {
      const d = alongRoute(L.latLng(handle.lat, handle.lon));
      if (d === null) continue;
      const tick = document.createElementNS(svgNS, 'line');
      tick.setAttribute('class', 'tick');
      tick.setAttribute('x1', x(d).toFixed(1)); tick.setAttribute('x2', x(d).toFixed(1));
      tick.setAttribute('y1', '0'); tick.setAttribute('y2', '10');
      svg.append(tick);
    }
    const cursor = document.createElementNS(svgNS, 'line');
    cursor.setAttribute('class', 'cursor');
    cursor.setAttribute('id', 'profile-cursor');
    cursor.setAttribute('y1', '0'); cursor.setAttribute('y2', String(height));
    cursor.setAttribute('visibility', 'hidden');
    svg.append(cursor);
    $('profile-label').textContent = Math.round(low) + '–' + Math.round(high) + ' m';
  }

  function profileCursor(metres) {
    const cursor = $('profile-cursor');
    if (!cursor || !profileScale || metres === null) return;
    const at = profileScale(metres).toFixed(1);
    cursor.setAttribute('x1', at); cursor.setAttribute('x2', at);
    cursor.setAttribute('visibility', 'visible');
  }

  map.on('mousemove', (event) => { if (book) profileCursor(alongRoute(event.latlng)); });

  // The mouse over the profile shows that place on the map.
  const profilePlace = L.circleMarker([0, 0], { radius: 5, color: '#d0021b', weight: 2, fillOpacity: 0.8, interactive: false });
  $('profile').addEventListener('mousemove', (event) => {
    const profile = book && book.profile || [];
    const route = book && book.route || [];
    if (profile.length < 2 || !route.length) return;
    const box = $('profile').getBoundingClientRect();
    const metres = (event.clientX - box.left) / box.width * profile[profile.length - 1][0];
    let i = 0;
    while (i < routeDistances.length - 1 && routeDistances[i] < metres) i++;
    profilePlace.setLatLng(route[i]).addTo(map);
    profileCursor(metres);
  });
  $('profile').addEventListener('mouseleave', () => profilePlace.remove());

  // ---- the page preview ----------------------------------------------------------------------

  function showPage() {
    $('page-number').textContent = String(pageNumber);
    $('page').src = '/api/page/' + pageNumber + '.png?revision=' + (book ? book.revision : 0);
    $('page-prev').disabled = pageNumber <= 1;
  }
  $('page').addEventListener('error', () => {
    if (pageNumber > 1) { pageNumber -= 1; showPage(); $('page-next').disabled = true; }
  });
  $('page-prev').addEventListener('click', () => { if (pageNumber > 1) { pageNumber -= 1; $('page-next').disabled = false; showPage(); } });
  $('page-next').addEventListener('click', () => { pageNumber += 1; showPage(); });
  $('preview-box').addEventListener('toggle', () => { if ($('preview-box').open) showPage(); });

  // ---- the page's moments, for the editor benchmark (scripts/bench/editor-bench.py) -----------

  let legsAwaited = null;  // true from a handle's drop until its new legs are drawn

  /** Marks `name` on the performance timeline once the frame showing what was drawn is painted. */
  function markAfterPaint(name) {
    requestAnimationFrame(() => setTimeout(() => performance.mark(name), 0));
  }

  /** Resolves when the tulips of the rows in view have loaded (or failed: rows without one). */
  function tulipsInView() {
    return new Promise((resolve) => requestAnimationFrame(() => {
      const view = $('rows-wrap').getBoundingClientRect();
      const waiting = [...document.querySelectorAll('#rows td.tulip img')].filter((img) => {
        const r = img.getBoundingClientRect();
        return !img.complete && r.bottom > view.top && r.top < view.bottom;
      }).map((img) => new Promise((done) => {
        img.addEventListener('load', done, { once: true });
        img.addEventListener('error', done, { once: true });
      }));
      Promise.all(waiting).then(resolve);
    }));
  }

  // ---- the whole page ------------------------------------------------------------------------

  function draw() {
    document.title = book.name + ' — roadbook';
    $('book-name').textContent = book.name;
    const status = $('book-status');
    const applied = book.status && book.status.applied;
    status.textContent = applied ? "This is the rally's route" : 'Not applied yet';
    if (book.status && book.status.message) status.title = book.status.message;
    status.className = 'book-status ' + (applied ? 'applied' : 'draft');
    $('apply').disabled = !!applied;
    if (book.mode) $('mode').value = book.mode;
    if (book.newLegs) $('new-legs').value = book.newLegs;
    document.body.dataset.revision = String(book.revision);

    measureRoute();
    drawRoute();
    drawHandles();
    if (editing) rowsStale = true; else drawRows();
    if (selectedRowId !== null && rowById(selectedRowId)) {
      const row = rowById(selectedRowId);
      rowMarker.setLatLng([row.lat, row.lon]);
    }
    drawProfile();

    drawWarnings();
    if ($('preview-box').open) showPage();

    if (firstView) {
      const points = (book.route || []).length ? book.route : (book.rows || []).map((r) => [r.lat, r.lon]);
      if (points.length) map.fitBounds(L.latLngBounds(points), { padding: [20, 20] });
      firstView = false;
      loadRoads();
      tulipsInView().then(() => markAfterPaint('roadbook:rows-ready'));
    }
  }

  $('mode').addEventListener('change', () => post('/api/handles', { op: 'mode', mode: $('mode').value }));
  $('new-legs').addEventListener('change', () => post('/api/handles', { op: 'newLegs', kind: $('new-legs').value }));
  $('reverse').addEventListener('click', () => post('/api/handles', { op: 'reverse' }));
  $('retry').addEventListener('click', () => post('/api/handles', { op: 'retry' }));
  $('clear').addEventListener('click', () => post('/api/handles', { op: 'clear' }));
  $('apply').addEventListener('click', () => post('/api/apply'));
  $('undo').addEventListener('click', () => post('/api/undo'));
  $('redo').addEventListener('click', () => post('/api/redo'));

  poll();
  setInterval(poll, 1000);
})();
