/* "Turn on push here": asks the browser for a Web Push subscription signed for this server's VAPID public key
 * (the Push API, through the service worker at /sw.js) and sends it to the server, which pushes notifications
 * to it (campaign.notifications.delivery). */
(function () {
  "use strict";
  const panel = document.getElementById("push-panel");
  const button = document.getElementById("push-subscribe");
  const status = document.getElementById("push-status");
  if (!panel || !button) return;

  function applicationServerKey(base64url) {
    const base64 = (base64url + "=".repeat((4 - (base64url.length % 4)) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  }

  async function send(subscription) {
    const csrf = JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"];
    const response = await fetch(panel.dataset.endpoint, { method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf }, body: JSON.stringify(subscription) });
    return (await response.json()).detail;
  }

  button.addEventListener("click", async () => {
    if (!("serviceWorker" in navigator) || !("PushManager" in window)) {
      status.textContent = "This browser cannot receive push notifications: you will find them under Notifications.";
      return;
    }
    try {
      if ((await Notification.requestPermission()) !== "granted") {
        status.textContent = "Notifications are blocked for this site: allow them in the browser's settings.";
        return;
      }
      const registration = await navigator.serviceWorker.ready;
      const subscription = await registration.pushManager.subscribe({ userVisibleOnly: true,
        applicationServerKey: applicationServerKey(panel.dataset.vapidKey) });
      status.textContent = await send(subscription.toJSON());
    } catch (error) {
      status.textContent = `The browser could not subscribe (${error.message}): your notifications stay listed under Notifications.`;
    }
  });
})();
