// trend.html's charts, drawn from trend.json's tree (embedded as #report-data): grouped bars of each
// version's ratio to the base, drawn from the reference line at 1.0 on a log axis (a bar's length is
// the size of the change, a halving as long as a doubling), with the 95% intervals as whiskers, and
// each step's change points as a dashed marker through the bar of the first version of its new level,
// and each figure whose sides ran in different table-maintenance states outlined and marked ⚠.
(function () {
  'use strict';
  var C = window.benchlakeCharts;
  var trend = C.data();
  var others = trend.versions.filter(function (v) { return v !== trend.base; });

  /** A log domain symmetric around 1 that holds every value, at least 0.8 to 1.25. */
  function domain(rows) {
    var reach = Math.log(1.25);
    rows.forEach(function (row) {
      [row.relative, row.low, row.high].forEach(function (x) {
        if (x !== null && x !== undefined && x > 0) {
          reach = Math.max(reach, Math.abs(Math.log(x)) * 1.06);
        }
      });
    });
    return [Math.exp(-reach), Math.exp(reach)];
  }

  /** Ticks that read as ratios, within the domain. */
  function ticks(range) {
    return [0.1, 0.2, 0.25, 0.33, 0.5, 0.67, 0.8, 0.9, 0.95, 1, 1.05, 1.1, 1.25, 1.5, 2, 3, 4, 5, 10].filter(function (t) {
      return t >= range[0] && t <= range[1];
    });
  }

  function versionColor(legend) {
    return {
      field: 'version', type: 'ordinal', sort: others,
      scale: { domain: others, scheme: { name: 'tealblues', extent: others.length === 1 ? [0.75, 0.75] : [0.45, 1] } },
      legend: legend ? { orient: 'top', title: trend.by, direction: 'horizontal' } : null
    };
  }

  function bars(rows, category, order, width, element, changes, title) {
    // The axis says where it starts: a reader of the study's charts expects bars from 0.
    var yTitle = (title || 'ratio to ' + trend.base + (trend.higher_is_better ? ' (↑ better)' : ' (↓ better)'))
      + ', log scale, bars from 1.0 (axis not at 0)';
    var range = domain(rows);
    // Long names (the mytools study's <test>_range=<R>) slant, as many names do, so that none overlaps.
    var longest = Math.max.apply(null, order.map(function (o) { return String(o).length; }).concat([0]));
    var x = { field: category, type: 'nominal', sort: order, title: null,
      axis: { labelAngle: order.length > 6 || longest > 14 ? -35 : 0, labelLimit: 200 } };
    var xOffset = { field: 'version', type: 'ordinal', sort: others };
    var y = { field: 'relative', type: 'quantitative', scale: { type: 'log', domain: range, nice: false }, title: yTitle,
      axis: { format: '.2~f', values: ticks(range) } };
    var tooltip = [
      { field: category }, { field: 'version', title: trend.by }, { field: 'relative', title: 'ratio to ' + trend.base, format: '.3f' },
      { field: 'low', title: '95% CI low', format: '.3f' }, { field: 'high', title: '95% CI high', format: '.3f' },
      { field: 'note' }
    ];
    return {
      width: width, height: 240,
      data: { values: rows },
      layer: [
        {
          mark: { type: 'bar', cornerRadius: 1 },
          encoding: {
            x: x, xOffset: xOffset, y: y, y2: { datum: 1 }, color: versionColor(true),
            opacity: { condition: { test: 'datum.noisy', value: 0.4 }, value: 1 },
            stroke: { condition: { test: 'datum.confounded', value: '#b45309' }, value: null },
            strokeWidth: { condition: { test: 'datum.confounded', value: 2 }, value: 0 },
            tooltip: tooltip
          }
        },
        {
          // A confounded figure is never shown as a plain gain or loss: its bar carries the mark.
          name: 'confounded',
          transform: [{ filter: 'datum.confounded' }],
          mark: { type: 'text', text: '⚠', color: '#b45309', fontSize: 13, fontWeight: 700, baseline: 'bottom', dy: -2 },
          encoding: { x: x, xOffset: xOffset, y: { field: 'relative', type: 'quantitative' }, tooltip: tooltip }
        },
        {
          transform: [{ filter: 'isValid(datum.low) && isValid(datum.high)' }],
          mark: { type: 'rule', color: '#2b3140', strokeWidth: 1.2 },
          encoding: { x: x, xOffset: xOffset, y: { field: 'low', type: 'quantitative' }, y2: { field: 'high' }, tooltip: tooltip }
        },
        {
          data: { values: [{ one: 1 }] },
          mark: { type: 'rule', color: '#1c2230', strokeWidth: 1.2 },
          encoding: { y: { field: 'one', type: 'quantitative' } }
        }
      ].concat(changeLayers(changes || [], category, x, xOffset, range))
    };
  }

  /**
   * A change point as a dashed vertical marker through the bar of the first version of the new
   * level, across the whole chart, with its change as a label at the top.
   */
  function changeLayers(changes, category, x, xOffset, range) {
    if (changes.length === 0) {
      return [];
    }
    var tooltip = [
      { field: category }, { field: 'version', title: 'change point at ' + trend.by }, { field: 'label', title: 'level change' },
      { field: 'before', title: 'level before', format: '.4~g' }, { field: 'after', title: 'level after', format: '.4~g' },
      { field: 'p', title: 'permutation p', format: '.3~g' }
    ];
    return [
      {
        name: 'change_points',
        data: { values: changes },
        mark: { type: 'rule', color: '#c2410c', strokeWidth: 2, strokeDash: [5, 3] },
        encoding: { x: x, xOffset: xOffset, tooltip: tooltip }
      },
      {
        name: 'change_point_labels',
        data: { values: changes.map(function (c) { var d = Object.assign({}, c); d.top = range[1]; return d; }) },
        mark: { type: 'text', color: '#c2410c', fontSize: 10, fontWeight: 600, baseline: 'top', dy: 2, align: 'left', dx: 3 },
        encoding: { x: x, xOffset: xOffset, y: { field: 'top', type: 'quantitative' }, text: { field: 'label' },
          tooltip: tooltip }
      }
    ];
  }

  /** The change points of {@code steps} that fall on a drawn bar (the base has none), as chart rows. */
  function changesOf(steps, labelOf) {
    var rows = [];
    steps.forEach(function (s) {
      (s.change_points || []).forEach(function (c) {
        if (others.indexOf(c.at) >= 0) {
          var percent = (c.ratio - 1) * 100;
          rows.push({ step: labelOf(s), version: c.at, before: c.before, after: c.after, p: c.p,
            label: (percent >= 0 ? '▲ +' : '▼ −') + Math.abs(percent).toFixed(1) + '%' });
        }
      });
    });
    return rows;
  }

  /** The table-maintenance flags of a figure (not "not recorded", which is no flag), as one line, or null. */
  function confoundedOf(item, version) {
    var list = item.confounders ? item.confounders[version] : null;
    var flags = (list || []).filter(function (c) { return c.kind !== 'not_recorded'; });
    return flags.length === 0 ? null : 'confounded: ' + flags.map(function (c) { return c.kind + ' (' + c.detail + ')'; }).join('; ');
  }

  function rowsOf(items, category) {
    var rows = [];
    items.forEach(function (item) {
      others.forEach(function (version) {
        var relative = item.relative[version];
        if (relative !== null && relative > 0) {
          var ci = item.ci95 ? item.ci95[version] : null;
          var confounded = confoundedOf(item, version);
          var notes = [item.noisy ? 'noisy: its 95% interval is wider than the margin' : null, confounded]
            .filter(function (n) { return n; });
          var row = { version: version, relative: relative, low: ci ? ci[0] : null, high: ci ? ci[1] : null,
            noisy: !!item.noisy, confounded: confounded, note: notes.join('; ') };
          row[category] = item.label;
          rows.push(row);
        }
      });
    });
    return rows;
  }

  /** Bars of a readable width (about 22 px each), however many or few steps. */
  function width(categories) {
    return Math.max(260, categories * (others.length * 22 + 26));
  }

  function groupsChart(element) {
    var items = trend.groups.map(function (g) { return { label: g.group, relative: g.geomean, ci95: g.ci95 }; });
    var order = items.map(function (i) { return i.label; });
    return bars(rowsOf(items, 'group'), 'group', order, width(items.length), element);
  }

  function stepsChart(element) {
    var group = trend.groups[Number(element.getAttribute('data-group'))].group;
    var steps = trend.steps.filter(function (s) { return s.group === group; });
    var labelOf = function (s) { return s.step + (s.noisy ? ' ≈' : ''); };
    var items = steps.map(function (s) {
      return { label: labelOf(s), relative: s.relative, ci95: s.ci95, noisy: s.noisy, confounders: s.confounders };
    });
    var order = items.map(function (i) { return i.label; });
    var changes = changesOf(steps, labelOf);
    element.setAttribute('data-change-points', String(changes.length));
    var confounded = 0;
    items.forEach(function (i) { others.forEach(function (v) { if (confoundedOf(i, v) && i.relative[v] > 0) { confounded++; } }); });
    element.setAttribute('data-confounded', String(confounded));
    return bars(rowsOf(items, 'step'), 'step', order, width(items.length), element, changes);
  }

  /**
   * Server CPU per operation beside the metric: per step of the group with resource figures, each
   * version's θ against the base and its 95% interval (trend.json's steps[].resources), as bars.
   */
  function cpuChart(element) {
    var group = trend.groups[Number(element.getAttribute('data-group'))].group;
    var steps = trend.steps.filter(function (s) { return s.group === group && s.resources; });
    var items = steps.map(function (s) {
      var relative = {};
      var ci95 = {};
      others.forEach(function (v) {
        var at = s.resources[v];
        var cpu = at ? at.figures.filter(function (f) { return f.metric === 'server_cpu_us_per_op'; })[0] : null;
        relative[v] = cpu ? cpu.ratio : null;
        ci95[v] = cpu ? cpu.ratio_ci95 : null;
      });
      return { label: s.step, relative: relative, ci95: ci95 };
    });
    var rows = rowsOf(items, 'step');
    element.setAttribute('data-bars', String(rows.length));
    return bars(rows, 'step', items.map(function (i) { return i.label; }), width(items.length), element, [],
      'server CPU per operation, ratio to ' + trend.base + ' (↓ less CPU)');
  }

  /**
   * A step as a series (dates, timestamps, or values put in order by --order-by): one point per
   * value of --by, its figure (the geometric mean of its runs), joined by a line that breaks where a
   * value has no run (a missing night) or no figure; spaced by time for dates and timestamps, evenly
   * otherwise (trend.x_axis says which, and its title says so on the chart). Each change point: a
   * dashed rule at the first value of the new level, the levels either side as grey segments, and
   * the ratio as a label; ⚠ marks a figure whose sides ran in different table-maintenance states.
   */
  function seriesChart(element) {
    var step = trend.steps[Number(element.getAttribute('data-step'))];
    var axis = trend.x_axis;
    var time = axis.kind === 'time';
    var gaps = trend.gaps || [];
    var versions = trend.versions;
    var rows = [];
    var runPoints = [];
    var segment = 0;
    versions.forEach(function (v, i) {
      if (i > 0 && gaps.some(function (g) { return g > versions[i - 1] && g < v; })) {
        segment++;
      }
      var value = step.values[v];
      if (value === null || value === undefined) {
        segment++;
        return;
      }
      var ci = (step.values_ci95 || {})[v];
      rows.push({ x: time ? axis.at[v] : v, version: v, value: value, segment: segment, runs: step.runs[v],
        confounded: confoundedOf(step, v), low: ci ? ci[0] : null, high: ci ? ci[1] : null });
      var byRun = (step.run_values || {})[v] || {};
      Object.keys(byRun).forEach(function (run) {
        runPoints.push({ x: time ? axis.at[v] : v, version: v, run: run, value: byRun[run] });
      });
    });
    var intervals = rows.filter(function (r) { return r.low !== null; });
    element.setAttribute('data-run-points', String(runPoints.length));
    element.setAttribute('data-intervals', String(intervals.length));
    var x = time ? { field: 'x', type: 'temporal', title: axis.title, axis: { labelAngle: -30, format: '%Y-%m-%d' } }
      : { field: 'x', type: 'ordinal', sort: versions, title: axis.title, axis: { labelAngle: -35, labelLimit: 120 } };
    var y = { field: 'value', type: 'quantitative', scale: { zero: false },
      title: trend.metric + ' (' + trend.unit + ')' + (trend.higher_is_better ? ' ↑ better' : ' ↓ better') };
    var tooltip = [{ field: 'version', title: trend.by }, { field: 'value', title: trend.metric, format: '.4~g' },
      { field: 'runs', title: 'runs' }, { field: 'confounded' }];
    var levels = [];
    var marks = [];
    var changes = (step.change_points || []).filter(function (c) { return versions.indexOf(c.at) > 0; });
    var placeOf = function (v) { return time ? axis.at[v] : v; };
    changes.forEach(function (c, k) {
      var at = versions.indexOf(c.at);
      var from = k === 0 ? 0 : versions.indexOf(changes[k - 1].at);
      var to = k + 1 < changes.length ? versions.indexOf(changes[k + 1].at) - 1 : versions.length - 1;
      levels.push({ x: placeOf(versions[from]), x2: placeOf(versions[at - 1]), level: c.before, which: 'level before' });
      levels.push({ x: placeOf(c.at), x2: placeOf(versions[to]), level: c.after, which: 'level after' });
      var percent = (c.ratio - 1) * 100;
      marks.push({ x: placeOf(c.at), version: c.at, before: c.before, after: c.after, p: c.p,
        label: (percent >= 0 ? '▲ +' : '▼ −') + Math.abs(percent).toFixed(1) + '%' });
    });
    element.setAttribute('data-change-points', String(marks.length));
    element.setAttribute('data-segments', String(segment + 1));
    var markTooltip = [{ field: 'version', title: 'change point at ' + trend.by }, { field: 'label', title: 'level change' },
      { field: 'before', title: 'level before', format: '.4~g' }, { field: 'after', title: 'level after', format: '.4~g' },
      { field: 'p', title: 'permutation p', format: '.3~g' }];
    var runTooltip = [{ field: 'version', title: trend.by }, { field: 'run', title: 'run' },
      { field: 'value', title: trend.metric + ' of this run', format: '.4~g' }];
    var layers = [
      { data: { values: intervals }, mark: { type: 'rule', color: '#90cdf4', strokeWidth: 3 },
        encoding: { x: x, y: { field: 'low', type: 'quantitative' }, y2: { field: 'high' },
          tooltip: [{ field: 'version', title: trend.by }, { field: 'low', title: '95% interval from', format: '.4~g' },
            { field: 'high', title: 'to', format: '.4~g' }, { field: 'runs', title: 'runs' }] } },
      { data: { values: runPoints }, mark: { type: 'point', shape: 'circle', color: '#4a5568', size: 14, opacity: 0.55 },
        encoding: { x: x, y: { field: 'value', type: 'quantitative' }, tooltip: runTooltip } },
      { mark: { type: 'line', color: '#2b6cb0', strokeWidth: 1.5 },
        encoding: { x: x, y: y, detail: { field: 'segment', type: 'nominal' } } },
      { mark: { type: 'point', filled: true, color: '#2b6cb0', size: 28 }, encoding: { x: x, y: y, tooltip: tooltip } },
      { transform: [{ filter: 'datum.confounded' }],
        mark: { type: 'text', text: '⚠', color: '#b45309', fontSize: 13, fontWeight: 700, baseline: 'bottom', dy: -4 },
        encoding: { x: x, y: y, tooltip: tooltip } }
    ];
    if (marks.length > 0) {
      layers.push({ data: { values: levels }, mark: { type: 'rule', color: '#718096', strokeWidth: 2, opacity: 0.8 },
        encoding: { x: x, x2: { field: 'x2' }, y: { field: 'level', type: 'quantitative' },
          tooltip: [{ field: 'which' }, { field: 'level', format: '.4~g' }] } });
      layers.push({ name: 'change_points', data: { values: marks },
        mark: { type: 'rule', color: '#c2410c', strokeWidth: 2, strokeDash: [5, 3] },
        encoding: { x: x, tooltip: markTooltip } });
      layers.push({ data: { values: marks },
        mark: { type: 'text', color: '#c2410c', fontSize: 10, fontWeight: 600, align: 'left', dx: 3, y: 6, baseline: 'top' },
        encoding: { x: x, text: { field: 'label' }, tooltip: markTooltip } });
    }
    return { width: Math.max(600, Math.min(1100, versions.length * 12)), height: 200,
      title: { text: step.step, anchor: 'start', fontSize: 12,
        subtitle: 'grey: each run · blue line: geometric mean of a ' + trend.by + "'s runs · bar: its 95% interval",
        subtitleFontSize: 10, subtitleColor: '#4a5568' },
      data: { values: rows }, layer: layers };
  }

  document.querySelectorAll('.chart[data-chart]').forEach(function (element) {
    var kind = element.getAttribute('data-chart');
    C.embed(element, kind === 'groups' ? groupsChart(element) : kind === 'series' ? seriesChart(element)
      : kind === 'cpu' ? cpuChart(element) : stepsChart(element));
  });
})();
