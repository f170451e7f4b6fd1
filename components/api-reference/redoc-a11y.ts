/*
 * What Redoc's markup lacks for axe (docs/product.md §8 R7), mended in the browser once Redoc has
 * hydrated the reference — not in the server's HTML, which the browser's render must match
 * attribute for attribute. Redoc has no option for either.
 */

/**
 * Redoc heads an operation's sections (Authorizations, parameters, schemas) with `h5` under its
 * `h2` or `h3`: levels skipped, which screen readers announce as missing sections. Each `h5` and
 * `h6` is given the level below the heading above it (`aria-level`); the rest keep their own.
 */
function repairHeadingLevels(root: HTMLElement): void {
  let above = 1;
  for (const h of root.querySelectorAll<HTMLElement>('h1, h2, h3, h4, h5, h6')) {
    const own = Number(h.tagName[1]);
    if (own <= 4) {
      above = own;
      continue;
    }
    const level = Math.min(own, above + 1);
    if (level === own) h.removeAttribute('aria-level');
    else h.setAttribute('aria-level', String(level));
  }
}

/** Redoc's drop-downs, named by the words Redoc shows before them. */
const selectNames: [RegExp, string][] = [
  [/^\s*Example/, 'Example'],
  [/^\s*Content type/, 'Content type'],
  [/^\s*Response Schema/, 'Content type of the response'],
];

/** Redoc's `<select>`s carry no label: each gets the name of what it chooses (`aria-label`). */
function repairSelectNames(root: HTMLElement): void {
  for (const select of root.querySelectorAll<HTMLSelectElement>('select:not([aria-label])')) {
    const context = select.parentElement?.parentElement?.textContent ?? '';
    select.setAttribute('aria-label', selectNames.find(([words]) => words.test(context))?.[1] ?? 'Choose');
  }
}

/**
 * Mends `root` now and whenever Redoc renders more into it (a tab, an expanded schema).
 * @returns a function that stops watching.
 */
export function keepReferenceAccessible(root: HTMLElement): () => void {
  const repair = () => {
    repairHeadingLevels(root);
    repairSelectNames(root);
  };
  repair();
  let pending = 0;
  // Only added and removed nodes are watched: the attributes set here do not wake it again.
  const observer = new MutationObserver(() => {
    if (pending) return;
    pending = requestAnimationFrame(() => {
      pending = 0;
      repair();
    });
  });
  observer.observe(root, { childList: true, subtree: true });
  return () => {
    observer.disconnect();
    cancelAnimationFrame(pending);
  };
}
