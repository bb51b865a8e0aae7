/**
 * Registers a custom element once. Loading the script twice (two tags, a CMS that injects it again)
 * must warn, never throw, or the second copy would break the page.
 */
export function defineOnce(tag: string, ctor: CustomElementConstructor): void {
  const existing = customElements.get(tag);
  if (existing) {
    if (existing !== ctor) console.warn(`<${tag}> is already defined; the second copy of svc-checkout was ignored.`);
    return;
  }
  customElements.define(tag, ctor);
}
