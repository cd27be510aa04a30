// First script of every report page: keeps every script error (and unhandled promise rejection)
// and shows them in the page's #js-errors list, so that a reader knows when a chart is missing and
// the browser tests can assert there are none.
(function () {
  var errors = [];
  window.benchlakeErrors = errors;
  function show() {
    var list = document.getElementById('js-errors');
    if (!list) {
      return;
    }
    list.textContent = '';
    errors.forEach(function (message) {
      var item = document.createElement('li');
      item.textContent = message;
      list.appendChild(item);
    });
    list.setAttribute('data-count', String(errors.length));
    var box = document.getElementById('js-errors-box');
    if (box) {
      box.hidden = errors.length === 0;
    }
  }
  window.benchlakeRecordError = function (message) {
    errors.push(String(message));
    if (document.readyState !== 'loading') {
      show();
    }
  };
  window.onerror = function (message, source, line, column) {
    window.benchlakeRecordError(message + (source ? ' (' + source.split('/').pop() + ':' + line + ':' + column + ')' : ''));
  };
  window.addEventListener('unhandledrejection', function (event) {
    var reason = event.reason;
    window.benchlakeRecordError('unhandled rejection: ' + (reason && reason.message ? reason.message : reason));
  });
  document.addEventListener('DOMContentLoaded', show);
})();
