// The view's timeouts, all cleared when the view goes away.
export class Timers {
  private readonly ids = new Set<ReturnType<typeof setTimeout>>();

  later(fn: () => void, ms: number): ReturnType<typeof setTimeout> {
    const id = setTimeout(() => { this.ids.delete(id); fn(); }, ms);
    this.ids.add(id);
    return id;
  }

  cancel(id: ReturnType<typeof setTimeout> | null): void {
    if (id) { clearTimeout(id); this.ids.delete(id); }
  }

  clear(): void {
    for (const id of this.ids) clearTimeout(id);
    this.ids.clear();
  }
}
