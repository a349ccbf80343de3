// Clears the chat box after a message is sent and keeps the newest message in view (no inline scripts: CSP).
document.addEventListener("htmx:afterRequest", function (event) {
  const form = event.target.closest && event.target.closest(".chat-form");
  if (form && event.detail.successful) {
    form.reset();
    const log = document.getElementById("chat-log");
    if (log) log.scrollTop = log.scrollHeight;
  }
});
