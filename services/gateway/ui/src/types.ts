/** A view of the page: built once, shown for its routes, told when the user leaves it. */
export interface View<R> {
  root: HTMLElement;
  enter(route: R): void;
  leave(): void;
}
