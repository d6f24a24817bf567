// The login page: trades the single-use code in the address fragment (#c=CODE, never sent to the
// server in a request line) for a session token, kept in sessionStorage, then opens the dashboard.
import { exchangeCode } from "./api.js";
import { fill, text } from "./safe.js";

const state = document.getElementById("login-state");
const params = new URLSearchParams(location.hash.slice(1));
const code = params.get("c");
// The fragment goes first, so the code is not left in the address bar or the history.
history.replaceState(null, "", location.pathname);

if (!code) {
  state.textContent = "No login code in the address.";
} else {
  exchangeCode(code).then(
    () => location.replace("/"),
    (err) => {
      fill(state, "Sign-in failed: ", text(err.message));
    },
  );
}
