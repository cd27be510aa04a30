// report.html's charts, drawn from report.json's tree (embedded as #report-data).
(function () {
  'use strict';
  var C = window.benchlakeCharts;
  var report = C.data();
  var GROUPS = ['baseline', 'candidate'];

  function ecdf(step, element) {
    var plot = step.plot;
    var unit = C.timeUnit(plot.baseline_ecdf_s.concat(plot.candidate_ecdf_s));
    var rows = [];
    GROUPS.forEach(function (group) {
      plot[group + '_ecdf_s'].forEach(function (latency, i) {
        if (latency > 0) {
          rows.push({ group: group, p: plot.ecdf_p[i], latency: latency * unit.factor });
        }
      });
    });
    var x = { field: 'latency', type: 'quantitative', scale: { type: 'log', nice: false }, title: 'latency (' + unit.name + ')' };
    return {
      width: C.widthOf(element), height: 250, autosize: { type: 'fit-x', contains: 'padding' },
      data: { values: rows },
      layer: [
        {
          data: { values: [{ p: 0.5, label: 'p50' }, { p: 0.99, label: 'p99' }] },
          layer: [
            { mark: { type: 'rule', strokeDash: [3, 3], color: '#b9bfc9' }, encoding: { y: { field: 'p', type: 'quantitative' } } },
            {
              mark: { type: 'text', align: 'left', dx: 3, dy: -6, color: '#8b93a1', fontSize: 10 },
              encoding: { y: { field: 'p', type: 'quantitative' }, x: { value: 0 }, text: { field: 'label' } }
            }
          ]
        },
        {
          mark: { type: 'line', strokeWidth: 2, interpolate: 'monotone' },
          encoding: {
            x: x,
            y: { field: 'p', type: 'quantitative', title: 'share of tasks ≤ latency', scale: { domain: [0, 1] }, axis: { format: '.0%' } },
            color: C.groupColor(),
            tooltip: [
              { field: 'group' }, { field: 'p', title: 'quantile', format: '.2%' },
              { field: 'latency', title: 'latency (' + unit.name + ')', format: '.4~r' }
            ]
          }
        }
      ]
    };
  }

  function histogram(step, element) {
    var plot = step.plot;
    var edges = plot.histogram_edges_s;
    var unit = C.timeUnit(edges);
    var rows = [];
    GROUPS.forEach(function (group) {
      var counts = plot[group + '_histogram'];
      var total = counts.reduce(function (a, b) { return a + b; }, 0);
      counts.forEach(function (count, i) {
        if (count > 0 && edges[i] > 0) {
          rows.push({ group: group, low: edges[i] * unit.factor, high: edges[i + 1] * unit.factor, tasks: count, share: count / total });
        }
      });
    });
    return {
      width: C.widthOf(element), height: 230, autosize: { type: 'fit-x', contains: 'padding' },
      data: { values: rows },
      mark: { type: 'rect', fillOpacity: 0.28, strokeWidth: 1.2, strokeOpacity: 0.95 },
      encoding: {
        x: { field: 'low', type: 'quantitative', scale: { type: 'log', nice: false }, title: 'latency (' + unit.name + ')' },
        x2: { field: 'high' },
        y: { field: 'share', type: 'quantitative', title: 'share of the group\'s tasks', stack: null, axis: { format: '.0%' } },
        color: C.groupColor(),
        stroke: C.groupColor(false),
        tooltip: [
          { field: 'group' }, { field: 'low', title: 'from (' + unit.name + ')', format: '.4~r' },
          { field: 'high', title: 'to (' + unit.name + ')', format: '.4~r' }, { field: 'tasks' },
          { field: 'share', format: '.2%' }
        ]
      }
    };
  }

  // θ per step with its 1 − α interval (ci_decision) on a log axis, the margin band [1/(1+M), 1+M] shaded: the
  // figures are report.json's run_level, so the plot shows the numbers the verdicts rest on.
  function forest(element) {
    var rows = [];
    report.steps.forEach(function (step) {
      var level = step.run_level;
      if (level.ratio !== null && level.ci_decision[0] !== null) {
        rows.push({ step: step.step, ratio: level.ratio, low: level.ci_decision[0], high: level.ci_decision[1], verdict: step.verdict });
      }
    });
    var margin = report.margin;
    var band = [{ low: 1 / (1 + margin), high: 1 + margin }];
    var y = { field: 'step', type: 'nominal', title: null, sort: null };
    return {
      width: C.widthOf(element), height: { step: 26 }, autosize: { type: 'fit-x', contains: 'padding' },
      layer: [
        {
          data: { values: band },
          mark: { type: 'rect', color: '#d9e6f2', opacity: 0.7 },
          encoding: { x: { field: 'low', type: 'quantitative' }, x2: { field: 'high' } }
        },
        {
          data: { values: [{ one: 1 }] },
          mark: { type: 'rule', strokeDash: [3, 3], color: '#8b93a1' },
          encoding: { x: { field: 'one', type: 'quantitative' } }
        },
        {
          data: { values: rows },
          layer: [
            {
              mark: { type: 'rule', strokeWidth: 2 },
              encoding: {
                y: y, x: { field: 'low', type: 'quantitative', scale: { type: 'log', nice: false, zero: false },
                  title: element.getAttribute('data-axis-title') },
                x2: { field: 'high' }, color: { field: 'verdict', type: 'nominal', title: 'verdict' }
              }
            },
            {
              mark: { type: 'point', filled: true, size: 70 },
              encoding: {
                y: y, x: { field: 'ratio', type: 'quantitative' }, color: { field: 'verdict', type: 'nominal' },
                tooltip: [{ field: 'step' }, { field: 'ratio', title: 'θ', format: '.4~r' },
                  { field: 'low', title: 'interval low', format: '.4~r' }, { field: 'high', title: 'interval high', format: '.4~r' },
                  { field: 'verdict' }]
              }
            }
          ]
        }
      ]
    };
  }

  function runs(step, element) {
    var level = step.runs;
    var unit = C.timeUnit(level.baseline_medians_s.concat(level.candidate_medians_s).filter(function (v) { return v !== null; }));
    var medians = [];
    var throughputs = [];
    GROUPS.forEach(function (group) {
      level[group + '_run_ids'].forEach(function (id, i) {
        // slot: a small vertical offset per run, so that runs with close figures stay apart.
        var median = level[group + '_medians_s'][i];
        if (median !== null) {
          medians.push({ group: group, run: id, slot: i % 3, value: median * unit.factor });
        }
        var t = level[group + '_throughput_per_s'][i];
        if (t !== null) {
          throughputs.push({ group: group, run: id, slot: i % 3, value: t });
        }
      });
    });
    var width = C.widthOf(element) - 90;
    function strip(rows, title, format) {
      return {
        width: width, height: 76,
        data: { values: rows },
        mark: { type: 'point', filled: true, size: 110, opacity: 0.85, strokeWidth: 1, stroke: '#ffffff' },
        encoding: {
          x: { field: 'value', type: 'quantitative', scale: { zero: false, nice: true }, title: title },
          y: { field: 'group', type: 'nominal', title: null, sort: GROUPS, axis: { labelPadding: 6 } },
          yOffset: { field: 'slot', type: 'ordinal', scale: { paddingOuter: 0.6 } },
          color: C.groupColor(false),
          tooltip: [{ field: 'run' }, { field: 'group' }, { field: 'value', title: title, format: format }]
        }
      };
    }
    var panels = [strip(medians, 'median latency of the run (' + unit.name + ')', '.4~r')];
    if (throughputs.length > 0) {
      panels.push(strip(throughputs, 'throughput of the run (successful tasks/s)', ',.4~r'));
    }
    return { vconcat: panels, spacing: 18 };
  }

  function errors(step, element) {
    var rows = [];
    var totals = {};
    GROUPS.forEach(function (group) {
      var byCode = step[group].errors_by_code;
      Object.keys(byCode).forEach(function (code) {
        rows.push({ group: group, code: code, tasks: byCode[code] });
        totals[code] = (totals[code] || 0) + byCode[code];
      });
    });
    var order = Object.keys(totals).sort(function (a, b) { return totals[b] - totals[a] || (a < b ? -1 : 1); });
    return {
      width: C.widthOf(element), height: { step: 13 }, autosize: { type: 'fit-x', contains: 'padding' },
      data: { values: rows },
      mark: { type: 'bar', cornerRadiusEnd: 2 },
      encoding: {
        y: { field: 'code', type: 'nominal', sort: order, title: null, axis: { labelLimit: 190 } },
        yOffset: { field: 'group', sort: GROUPS },
        x: { field: 'tasks', type: 'quantitative', title: 'failed tasks' },
        color: C.groupColor(),
        tooltip: [{ field: 'code' }, { field: 'group' }, { field: 'tasks' }]
      }
    };
  }

  var BUILDERS = { ecdf: ecdf, histogram: histogram, runs: runs, errors: errors };
  document.querySelectorAll('.chart[data-chart]').forEach(function (element) {
    var kind = element.getAttribute('data-chart');
    if (kind === 'forest') {
      C.embed(element, forest(element));
      return;
    }
    var step = report.steps[Number(element.getAttribute('data-step'))];
    C.embed(element, BUILDERS[kind](step, element));
  });
})();
