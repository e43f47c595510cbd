// Drag to play on desktop: a playable card dragged with the mouse onto the felt is played; let
// go anywhere else and it goes back to the hand. A tap (or a click without moving) still plays,
// and touch and pen never drag (a thumb on a phone scrolls and taps, it does not carry cards).

const THRESHOLD = 8; // px the pointer moves before a press becomes a drag

/** Make `node` (a playable card) draggable onto `zone()` (the felt); `play()` plays it. */
export function draggable(node, zone, play) {
  node.addEventListener("pointerdown", (down) => {
    if (down.pointerType !== "mouse" || down.button !== 0) return;
    let dragging = false;
    // Captured at once: a quick drag leaves the card before its first move event.
    node.setPointerCapture(down.pointerId);
    const move = (event) => {
      const dx = event.clientX - down.clientX;
      const dy = event.clientY - down.clientY;
      if (!dragging && Math.hypot(dx, dy) < THRESHOLD) return;
      if (!dragging) {
        dragging = true;
        node.classList.add("dragging");
      }
      node.style.setProperty("--dx", `${dx}px`);
      node.style.setProperty("--dy", `${dy}px`);
      const felt = zone();
      felt?.classList.toggle("drop-here", over(felt, event));
    };
    const up = (event) => {
      node.removeEventListener("pointermove", move);
      node.removeEventListener("pointerup", up);
      node.removeEventListener("pointercancel", up);
      if (!dragging) return; // a plain click: the click handler plays it
      const felt = zone();
      felt?.classList.remove("drop-here");
      node.classList.remove("dragging");
      node.style.removeProperty("--dx");
      node.style.removeProperty("--dy");
      // The click that ends a drag is not a tap: swallow it once.
      node.addEventListener("click", (click) => {
        click.stopImmediatePropagation();
        click.preventDefault();
      }, { capture: true, once: true });
      if (event.type === "pointerup" && felt && over(felt, event)) play();
    };
    node.addEventListener("pointermove", move);
    node.addEventListener("pointerup", up);
    node.addEventListener("pointercancel", up);
  });
}

function over(element, event) {
  const box = element.getBoundingClientRect();
  return event.clientX >= box.left && event.clientX <= box.right
    && event.clientY >= box.top && event.clientY <= box.bottom;
}
