// The assistant's panel (no inline scripts: CSP). Everything a shopper or a model wrote is inserted with
// textContent, never as HTML; the server's fragments are escaped by its templates.
(function () {
  "use strict";

  const OPEN_KEY = "insightshop:assistant-open";

  function chatLog(detail) {
    const target = detail && detail.target;
    return target && target.id === "chat-log" ? target : null;
  }

  function bubble(log, role, text, extraClass) {
    const message = document.createElement("div");
    message.className = "chat-msg chat-msg--" + role + (extraClass ? " " + extraClass : "");
    const paragraph = document.createElement("p");
    paragraph.textContent = text;
    message.appendChild(paragraph);
    log.appendChild(message);
    return message;
  }

  function typingIndicator(log) {
    const typing = document.createElement("div");
    typing.className = "chat-msg chat-typing";
    typing.setAttribute("role", "status");
    for (let i = 0; i < 3; i++) typing.appendChild(document.createElement("span")).className = "chat-dot";
    const words = typing.appendChild(document.createElement("span"));
    words.className = "visually-hidden";
    words.textContent = "The assistant is typing…";
    log.appendChild(typing);
    return typing;
  }

  // The newest message in view: its start when it is taller than the log, else the bottom of the log.
  function showNewest(log) {
    const last = log.lastElementChild;
    if (!last) return;
    if (log.scrollHeight > log.clientHeight + 1) {
      const top = last.offsetTop - log.offsetTop;
      log.scrollTop = last.offsetHeight > log.clientHeight ? top : log.scrollHeight;
    } else if (!log.closest(".assistant-panel")) {
      last.scrollIntoView({ block: "nearest" });
    }
  }

  function failureText(status) {
    if (!status) return "I couldn't reach the shop. Check your connection and try again.";
    if (status === 400 || status === 403) return "Your session has expired. Reload the page and try again.";
    if (status === 429) return "That was a lot of messages at once. Wait a moment and try again.";
    if (status >= 500) return "Something went wrong on our side (error " + status + "). Please try again in a moment.";
    return "That didn't work (error " + status + "). Please try again.";
  }

  // A message typed and sent while the last one is still being answered is neither dropped (htmx ignores a second
  // request from the same form) nor wiped by the reset below: it waits in the box and goes once the answer is in.
  // (While busy the Send button is disabled, so Enter in the box submits nothing: it is caught here.)
  function busyChatForm(element) {
    const form = element && element.closest ? element.closest("form.chat-form") : null;
    return form && form.getAttribute("aria-busy") === "true" ? form : null;
  }

  document.addEventListener("submit", function (event) {
    const form = busyChatForm(event.target);
    if (!form) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    form.dataset.sendNext = "1";
  }, true);

  document.addEventListener("keydown", function (event) {
    const form = event.key === "Enter" && !event.isComposing ? busyChatForm(event.target) : null;
    if (!form || event.target.name !== "message") return;
    event.preventDefault();
    form.dataset.sendNext = "1";
  }, true);

  function finishSending(form, detail) {
    const input = form.querySelector("input[name=message]");
    // Only what was sent leaves the box; a message typed meanwhile stays (and stays after a failure too).
    if (detail.successful && input && input.value === detail.chatSent) input.value = "";
    const queued = form.dataset.sendNext === "1";
    delete form.dataset.sendNext;
    if (queued && detail.successful && input && input.value.trim()) {
      // After htmx has finished with this request, so the form is free to send again.
      window.setTimeout(function () { form.requestSubmit(); }, 0);
    }
  }

  function buttonsOf(form) {
    return form ? Array.prototype.slice.call(form.querySelectorAll("button")) : [];
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    const log = chatLog(event.detail);
    const form = event.detail.elt.closest && event.detail.elt.closest("form");
    if (!log || !form) return;
    const pending = [];
    if (form.classList.contains("chat-form")) {
      const input = form.querySelector("input[name=message]");
      if (input && input.value.trim()) pending.push(bubble(log, "user", input.value.trim(), "chat-msg--pending"));
      event.detail.chatSent = input ? input.value : "";
    }
    pending.push(typingIndicator(log));
    // The same detail object comes back in htmx:afterRequest, even when the form was swapped away meanwhile.
    event.detail.chatPending = pending;
    event.detail.chatForm = form;
    buttonsOf(form).forEach(function (button) { button.disabled = true; });
    form.setAttribute("aria-busy", "true");
    showNewest(log);
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    const log = chatLog(event.detail);
    const form = event.detail.chatForm;
    if (!log) return;
    (event.detail.chatPending || []).forEach(function (node) { node.remove(); });
    event.detail.chatPending = null;
    if (form) {
      form.removeAttribute("aria-busy");
      const decided = form.classList.contains("chat-confirm-actions") && event.detail.successful;
      // Approve/Cancel stay disabled once the server has answered (the decision is final); other buttons return.
      if (!decided) buttonsOf(form).forEach(function (button) { button.disabled = false; });
      if (form.classList.contains("chat-form")) finishSending(form, event.detail);
    }
    if (!event.detail.successful) {
      const status = event.detail.xhr ? event.detail.xhr.status : 0;
      bubble(log, "assistant", failureText(status), "chat-msg--error").setAttribute("role", "alert");
    }
    showNewest(log);
  });

  document.addEventListener("htmx:afterSettle", function (event) {
    const log = chatLog(event.detail);
    if (log) showNewest(log);
  });

  // The panel stays open across pages when the shopper left it open, and opens on its newest message.
  function restorePanel() {
    const panel = document.getElementById("assistant-panel");
    if (!panel) return;
    try {
      if (sessionStorage.getItem(OPEN_KEY) === "1") panel.open = true;
    } catch (e) { /* storage disabled: the panel simply starts closed */ }
    panel.addEventListener("toggle", function () {
      try { sessionStorage.setItem(OPEN_KEY, panel.open ? "1" : "0"); } catch (e) { /* ignore */ }
      const log = document.getElementById("chat-log");
      if (panel.open && log) log.scrollTop = log.scrollHeight;
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", restorePanel);
  else restorePanel();
})();
