/**
 * Keeps what the reader looks at in place while content above or around it changes (an earlier
 * page put in front, a turn laying out, turns dropped off the window): remembers the first turn
 * in view and its distance from the top, and after a change scrolls by however far it moved.
 * Where the browser anchors too (`overflow-anchor: auto`), it has usually moved the turn back
 * already and the correction here is zero; where it has no anchoring (Safari), this does the work.
 */
export class ScrollAnchor {
  #el: Element | null = null;
  #top = 0;

  constructor(
    private readonly scroller: () => HTMLElement | null,
    private readonly items: () => ArrayLike<Element>,
  ) {}

  /** Remembers the first item whose bottom is below the scroller's top edge (binary search: items are in order). */
  capture(): void {
    const s = this.scroller();
    const list = this.items();
    if (!s || !list.length) {
      this.#el = null;
      return;
    }
    const edge = s.getBoundingClientRect().top;
    let lo = 0;
    let hi = list.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid]!.getBoundingClientRect().bottom > edge) hi = mid;
      else lo = mid + 1;
    }
    const el = list[lo]!;
    // The scroll events our own correction (and the browser's anchoring) cause land within a
    // pixel of where the item was held: re-measuring there would let sub-pixel rounding pile up
    // page after page, so the held offset stays.
    if (el === this.#el && Math.abs(el.getBoundingClientRect().top - s.getBoundingClientRect().top - this.#top) < 1.5) return;
    this.pin(el);
  }

  /** Anchors to `el` where it is now (after a jump to it). */
  pin(el: Element): void {
    const s = this.scroller();
    if (!s) return;
    this.#el = el;
    this.#top = el.getBoundingClientRect().top - s.getBoundingClientRect().top;
  }

  /** Scrolls so the remembered item is where it was; false when there was nothing to hold. */
  restore(): boolean {
    const s = this.scroller();
    const el = this.#el;
    if (!s || !el?.isConnected) {
      this.capture();
      return false;
    }
    const delta = el.getBoundingClientRect().top - s.getBoundingClientRect().top - this.#top;
    if (Math.abs(delta) >= 0.5) s.scrollTop += delta;
    return true;
  }

  clear(): void {
    this.#el = null;
  }
}
