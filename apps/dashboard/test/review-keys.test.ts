import { describe, expect, it } from 'vitest';
import {
  isTypingTarget,
  reviewCommandFor,
  selectionAfter,
  stepSelection,
} from '../src/features/review/components/review-keys';

function press(key: string, target: EventTarget | null = document.body, extra: Partial<KeyboardEvent> = {}) {
  return reviewCommandFor({
    key,
    ctrlKey: false,
    metaKey: false,
    altKey: false,
    defaultPrevented: false,
    target,
    ...extra,
  });
}

function element(html: string): HTMLElement {
  const holder = document.createElement('div');
  holder.innerHTML = html;
  document.body.append(holder);
  return holder.querySelector('[data-target]') as HTMLElement;
}

describe('the review shortcuts', () => {
  it('maps j, k, a and r to next, previous, approve and reject', () => {
    expect(['j', 'k', 'a', 'r'].map((key) => press(key))).toEqual(['next', 'previous', 'approve', 'reject']);
    expect(press('x')).toBeNull();
    expect(press('A')).toBeNull();
  });

  it('does nothing with a modifier held (the browser keeps ctrl+r, cmd+a, ...)', () => {
    expect(press('r', document.body, { ctrlKey: true })).toBeNull();
    expect(press('a', document.body, { metaKey: true })).toBeNull();
    expect(press('j', document.body, { altKey: true })).toBeNull();
    expect(press('a', document.body, { defaultPrevented: true })).toBeNull();
  });

  it('does not fire while typing in a field, a select, an editable element or a dialog', () => {
    for (const html of [
      '<input data-target type="text">',
      '<input data-target type="search">',
      '<input data-target>',
      '<textarea data-target></textarea>',
      '<select data-target><option>x</option></select>',
      '<div contenteditable="true"><p data-target>text</p></div>',
      '<div role="alertdialog"><button data-target>Cancel</button></div>',
    ]) {
      const target = element(html);
      expect(isTypingTarget(target), html).toBe(true);
      expect(press('a', target), html).toBeNull();
    }
  });

  it('still fires on a checkbox or a button of the list', () => {
    expect(press('a', element('<input data-target type="checkbox">'))).toBe('approve');
    expect(press('j', element('<button data-target>Story</button>'))).toBe('next');
  });
});

describe('moving through the queue', () => {
  const ids = ['a1', 'a2', 'a3'];

  it('steps one item at a time and stops at the ends', () => {
    expect(stepSelection(ids, 'a1', 1)).toBe('a2');
    expect(stepSelection(ids, 'a3', 1)).toBe('a3');
    expect(stepSelection(ids, 'a1', -1)).toBe('a1');
    expect(stepSelection(ids, null, 1)).toBe('a1');
    expect(stepSelection(ids, 'gone', -1)).toBe('a1');
    expect(stepSelection([], null, 1)).toBeNull();
  });

  it('selects the next remaining item after a decision, else the one before, else nothing', () => {
    expect(selectionAfter(ids, 'a1', new Set(['a1']))).toBe('a2');
    expect(selectionAfter(ids, 'a2', new Set(['a2', 'a3']))).toBe('a1');
    expect(selectionAfter(ids, 'a3', new Set(['a3']))).toBe('a2');
    expect(selectionAfter(ids, 'a1', new Set(['a1', 'a2']))).toBe('a3');
    expect(selectionAfter(ids, 'a2', new Set(ids))).toBeNull();
  });
});
