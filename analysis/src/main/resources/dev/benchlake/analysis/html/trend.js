// trend.html's charts, drawn from trend.json's tree (embedded as #report-data): grouped bars of each
// version's ratio to the base, drawn from the reference line at 1.0 on a log axis (a bar's length is
// the size of the change, a halving as long as a doubling), with the 95% intervals as whiskers.
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

  function bars(rows, category, order, width, element) {
    var yTitle = 'ratio to ' + trend.base + (trend.higher_is_better ? ' (↑ better)' : ' (↓ better)');
    var range = domain(rows);
    var x = { field: category, type: 'nominal', sort: order, title: null, axis: { labelAngle: order.length > 6 ? -35 : 0, labelLimit: 160 } };
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
            tooltip: tooltip
          }
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
      ]
    };
  }

  function rowsOf(items, category) {
    var rows = [];
    items.forEach(function (item) {
      others.forEach(function (version) {
        var relative = item.relative[version];
        if (relative !== null && relative > 0) {
          var ci = item.ci95 ? item.ci95[version] : null;
          var row = { version: version, relative: relative, low: ci ? ci[0] : null, high: ci ? ci[1] : null,
            noisy: !!item.noisy, note: item.noisy ? 'noisy: its 95% interval is wider than the margin' : '' };
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
    var items = trend.steps.filter(function (s) { return s.group === group; }).map(function (s) {
      return { label: s.step + (s.noisy ? ' ≈' : ''), relative: s.relative, ci95: s.ci95, noisy: s.noisy };
    });
    var order = items.map(function (i) { return i.label; });
    return bars(rowsOf(items, 'step'), 'step', order, width(items.length), element);
  }

  document.querySelectorAll('.chart[data-chart]').forEach(function (element) {
    var kind = element.getAttribute('data-chart');
    C.embed(element, kind === 'groups' ? groupsChart(element) : stepsChart(element));
  });
})();
