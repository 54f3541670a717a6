/**
 * @tanstack/virtual-core's Virtualizer as a Preact hook (what @tanstack/react-virtual does for
 * React): the library decides which rows exist in the DOM and where; the screen renders them.
 * Rows are placed through the CSSOM (`element.style.…` from a style object), which the CSP
 * allows; no style attribute is ever written into markup.
 */
import { elementScroll, observeElementOffset, observeElementRect, Virtualizer, type VirtualizerOptions } from '@tanstack/virtual-core';
import { useLayoutEffect, useReducer, useState } from 'preact/hooks';

export type { VirtualItem } from '@tanstack/virtual-core';

type ElementOptions<S extends Element, I extends Element> = Pick<VirtualizerOptions<S, I>, 'count' | 'getScrollElement' | 'estimateSize'> &
  Partial<Omit<VirtualizerOptions<S, I>, 'count' | 'getScrollElement' | 'estimateSize'>>;

/** A virtualizer over a scrolling element; the component re-renders when the visible range changes. */
export function useVirtualizer<S extends Element, I extends Element>(options: ElementOptions<S, I>): Virtualizer<S, I> {
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const resolved: VirtualizerOptions<S, I> = {
    observeElementRect,
    observeElementOffset,
    scrollToFn: elementScroll,
    measureElement: (element, entry) => {
      // Rows are measured with their borders (a ResizeObserver's content box has none).
      if (entry?.borderBoxSize?.[0]) return Math.round(entry.borderBoxSize[0].blockSize);
      return Math.round(element.getBoundingClientRect().height);
    },
    ...options,
    onChange: (instance, sync) => {
      rerender(0);
      options.onChange?.(instance, sync);
    },
  };
  const [instance] = useState(() => new Virtualizer<S, I>(resolved));
  instance.setOptions(resolved);
  useLayoutEffect(() => instance._didMount(), []);
  useLayoutEffect(() => instance._willUpdate());
  return instance;
}
