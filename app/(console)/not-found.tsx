import { NotFoundMessage } from '@/components/not-found-message';

/**
 * An unknown node, reservation or VM inside the console (docs/product.md §6): inside the
 * layout's `<main>`, so the page keeps exactly one (issue 23: the 404 had two).
 */
export default function ConsoleNotFound() {
  return (
    <div className="flex justify-center py-16">
      <NotFoundMessage />
    </div>
  );
}
