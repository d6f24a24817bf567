// The login page: trades the single-use code in the address fragment (#c=CODE, never sent to the
// server in a request line) for a session token, kept in sessionStorage, then opens the dashboard.
// A link pasted into a tab that already shows this page changes only the fragment (no reload), so
// the page signs in again on every fragment change.
import { exchangeCode } from "./api.js";
import { fill, text } from "./safe.js";

const state = document.getElementById("login-state");

function signIn() {
  const params = new URLSearchParams(location.hash.slice(1));
  const code = params.get("c");
  // The fragment goes first, so the code is not left in the address bar or the history.
  history.replaceState(null, "", location.pathname);
  if (!code) {
    state.textContent = "No login code in the address.";
    return;
  }
  state.textContent = "Signing in…";
  exchangeCode(code).then(
    () => location.replace("/"),
    (err) => {
      fill(state, "Sign-in failed: ", text(err.message));
    },
  );
}

signIn();
window.addEventListener("hashchange", signIn);
