// Placeholder until the panel lands in the next commit: says so on the page.
import { h, fill } from "./safe.js";

export async function render(panel) {
  fill(panel, h("p", { class: "muted" }, "This panel is not written yet."));
}
