// Pan (drag the background or a node) and zoom (wheel, around the pointer) for the diagram's SVG,
// by one transform on its viewport group; `fit` shows the whole drawing. A drag of more than a
// few pixels swallows the click that ends it, so dragging over a node does not select it.

export class PanZoom {
  private k = 1;
  private x = 0;
  private y = 0;
  private drag: { id: number; x: number; y: number; moved: boolean } | null = null;
  private swallowClick = false;

  constructor(
    private readonly svg: SVGSVGElement,
    private readonly viewport: SVGGElement,
  ) {
    svg.addEventListener('wheel', (e) => this.wheel(e), { passive: false });
    svg.addEventListener('pointerdown', (e) => {
      if (e.button !== 0) return;
      this.drag = { id: e.pointerId, x: e.clientX, y: e.clientY, moved: false };
    });
    svg.addEventListener('pointermove', (e) => {
      const d = this.drag;
      if (!d || d.id !== e.pointerId) return;
      const dx = e.clientX - d.x;
      const dy = e.clientY - d.y;
      if (!d.moved && Math.hypot(dx, dy) < 4) return;
      if (!d.moved) {
        d.moved = true;
        svg.setPointerCapture(e.pointerId);
        svg.classList.add('dragging');
      }
      this.x += dx;
      this.y += dy;
      d.x = e.clientX;
      d.y = e.clientY;
      this.apply();
    });
    const end = (e: PointerEvent) => {
      if (!this.drag || this.drag.id !== e.pointerId) return;
      this.swallowClick = this.drag.moved;
      this.drag = null;
      svg.classList.remove('dragging');
    };
    svg.addEventListener('pointerup', end);
    svg.addEventListener('pointercancel', end);
    // Capture phase: runs before the diagram's own click handler.
    svg.addEventListener(
      'click',
      (e) => {
        if (this.swallowClick) {
          this.swallowClick = false;
          e.stopPropagation();
          e.preventDefault();
        }
      },
      true,
    );
  }

  private wheel(e: WheelEvent) {
    e.preventDefault();
    const r = this.svg.getBoundingClientRect();
    const factor = Math.exp(-e.deltaY * (e.deltaMode === 1 ? 0.05 : 0.0015));
    this.zoomAt(e.clientX - r.left, e.clientY - r.top, factor);
  }

  /** Zooms by `factor` keeping the point (px, py) of the SVG where it is. */
  zoomAt(px: number, py: number, factor: number): void {
    const k = Math.min(4, Math.max(0.05, this.k * factor));
    const f = k / this.k;
    this.x = px - (px - this.x) * f;
    this.y = py - (py - this.y) * f;
    this.k = k;
    this.apply();
  }

  /** Scales a drawing of width x height into the SVG, centred across and from the top (never
   * above 100 %, never below `minScale`: a first view of a big SEFF stays readable). */
  fit(width: number, height: number, minScale = 0.05): void {
    const r = this.svg.getBoundingClientRect();
    if (r.width === 0 || r.height === 0 || width === 0 || height === 0) return;
    const margin = 16;
    this.k = Math.max(minScale, Math.min(1, (r.width - 2 * margin) / width, (r.height - 2 * margin) / height));
    this.x = Math.max(margin, (r.width - width * this.k) / 2);
    this.y = margin;
    this.apply();
  }

  get scale(): number {
    return this.k;
  }

  private apply() {
    this.viewport.setAttribute('transform', `translate(${this.x.toFixed(1)} ${this.y.toFixed(1)}) scale(${this.k.toFixed(4)})`);
  }
}
