// Shared chart helpers of the report pages (after Vega, Vega-Lite and vega-embed). Strings from the
// data only ever enter charts as data values, never as Vega expressions or HTML, so a hostile label
// is drawn as text.
(function () {
  'use strict';
  var GROUP_COLORS = { baseline: '#4c78a8', candidate: '#f58518' };
  var FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", "DejaVu Sans", sans-serif';
  var CONFIG = {
    font: FONT,
    background: null,
    view: { stroke: null },
    axis: {
      labelColor: '#5d6675', titleColor: '#5d6675', titleFontWeight: 600, labelFontSize: 11, titleFontSize: 11,
      gridColor: '#eceef2', domainColor: '#c9ced6', tickColor: '#c9ced6', labelFlush: false
    },
    legend: { labelFontSize: 11, titleFontSize: 11, labelColor: '#1c2230', symbolStrokeWidth: 2 },
    title: { fontSize: 12, fontWeight: 600, color: '#1c2230', anchor: 'start' }
  };
  var SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';

  /** The report's data, embedded as JSON. */
  function data() {
    return JSON.parse(document.getElementById('report-data').textContent);
  }

  /** A unit in which the largest of {@code seconds} reads well: s, ms or µs. */
  function timeUnit(seconds) {
    var max = 0;
    seconds.forEach(function (s) { if (s !== null && isFinite(s)) { max = Math.max(max, Math.abs(s)); } });
    if (max >= 1) { return { name: 's', factor: 1 }; }
    if (max >= 1e-3) { return { name: 'ms', factor: 1e3 }; }
    if (max >= 1e-6) { return { name: 'µs', factor: 1e6 }; }
    return { name: 'ns', factor: 1e9 };
  }

  /** Colour encoding of the two groups, the same in every chart and legend. */
  function groupColor(legend) {
    return {
      field: 'group', type: 'nominal',
      scale: { domain: ['baseline', 'candidate'], range: [GROUP_COLORS.baseline, GROUP_COLORS.candidate] },
      legend: legend === false ? null : { orient: 'top', title: null, direction: 'horizontal' }
    };
  }

  /** Data marks drawn in {@code element}'s SVG (axes, legends and titles excluded). */
  function countMarks(element) {
    var n = 0;
    element.querySelectorAll('svg .role-mark > *').forEach(function (node) {
      var d = node.getAttribute('d');
      if (node.tagName.toLowerCase() !== 'path' || (d && d.length > 0)) {
        n++;
      }
    });
    return n;
  }

  /**
   * Draws {@code spec} into {@code element} as SVG and records on it how many data marks were drawn
   * ({@code data-marks}); a failure goes to the page's error list and replaces the chart by a note.
   */
  function embed(element, spec) {
    spec.$schema = SCHEMA;
    spec.config = CONFIG;
    return vegaEmbed(element, spec, { renderer: 'svg', actions: false, tooltip: true })
      .then(function () {
        element.setAttribute('data-marks', String(countMarks(element)));
      })
      .catch(function (error) {
        window.benchlakeRecordError('chart ' + element.id + ': ' + (error && error.message ? error.message : error));
        element.setAttribute('data-chart-error', 'true');
        var note = document.createElement('p');
        note.className = 'chart-error';
        note.textContent = 'This chart could not be drawn; the figures are in the tables.';
        element.replaceChildren(note);
      });
  }

  /** Width available for a chart drawn into {@code element}, in px. */
  function widthOf(element) {
    return Math.max(240, Math.floor(element.getBoundingClientRect().width) - 8);
  }

  window.benchlakeCharts = {
    data: data, embed: embed, timeUnit: timeUnit, groupColor: groupColor, widthOf: widthOf, colors: GROUP_COLORS
  };
})();
