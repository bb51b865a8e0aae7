/**
 * Keyboard containment for the modal dialog. `showModal()` already makes the page inert and closes on
 * Escape; this keeps Tab cycling inside the dialog instead of escaping to the browser's toolbar.
 */

const FOCUSABLE = 'button:not([disabled]), a[href], input:not([disabled]), summary, [tabindex]:not([tabindex="-1"])';

/** Focusable elements of `container` that are actually shown (e.g. not inside a closed <details>). */
export function focusables(container: ParentNode): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.getClientRects().length > 0);
}

/** Keydown handler: wraps Tab from the last element to the first and Shift+Tab from the first to the last. */
export function trapTab(event: KeyboardEvent, container: ParentNode, active: Element | null): void {
  if (event.key !== 'Tab') return;
  const items = focusables(container);
  if (!items.length) return event.preventDefault();
  const first = items[0]!;
  const last = items[items.length - 1]!;
  const inside = active != null && items.includes(active as HTMLElement);
  if (event.shiftKey ? active === first || !inside : active === last || !inside) {
    event.preventDefault();
    (event.shiftKey ? last : first).focus();
  }
}
