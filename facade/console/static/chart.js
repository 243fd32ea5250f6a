// A small line chart drawn as SVG: time on x, values on y, one line per series, a legend, axis ticks.
// lineChart(series, {width, height, unit}) returns an <svg> element; series is [{name, points: [[ms, value], ...]}].
(function () {
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";
const PALETTE = ["#2f6fde", "#d9822b", "#2a9d8f", "#c0392b", "#7b61c9", "#8d6e63", "#e76f9a", "#5c7080", "#9bbc3b", "#17becf"];

function svgNode(name, attributes, text) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

function niceStep(range, count) {
  const raw = range / Math.max(1, count);
  const power = Math.pow(10, Math.floor(Math.log10(raw || 1)));
  for (const factor of [1, 2, 5, 10]) if (raw <= factor * power) return factor * power;
  return 10 * power;
}

function shortNumber(value) {
  const magnitude = Math.abs(value);
  if (magnitude >= 1e9) return (value / 1e9).toFixed(1) + "G";
  if (magnitude >= 1e6) return (value / 1e6).toFixed(1) + "M";
  if (magnitude >= 1e3) return (value / 1e3).toFixed(1) + "k";
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

function clockTime(ms) {
  const date = new Date(ms);
  return [date.getHours(), date.getMinutes(), date.getSeconds()].map((n) => String(n).padStart(2, "0")).join(":");
}

function lineChart(series, options) {
  const width = options.width || 520, height = options.height || 200;
  const left = 52, right = 10, top = 10, bottom = 40;
  const svg = svgNode("svg", { width, height, viewBox: `0 0 ${width} ${height}`, role: "img", class: "line-chart" });
  const points = series.flatMap((s) => s.points);
  if (points.length === 0) {
    svg.appendChild(svgNode("text", { x: width / 2, y: height / 2, "text-anchor": "middle", fill: "#6b7385" }, "waiting for data…"));
    return svg;
  }
  const xs = points.map((p) => p[0]), ys = points.map((p) => p[1]);
  const xMin = Math.min(...xs), xMax = Math.max(...xs) || xMin + 1;
  const yMax = Math.max(1, ...ys), step = niceStep(yMax, 4), yTop = Math.ceil(yMax / step) * step;
  const x = (ms) => left + ((ms - xMin) / Math.max(1, xMax - xMin)) * (width - left - right);
  const y = (value) => top + (1 - value / yTop) * (height - top - bottom);
  for (let tick = 0; tick <= yTop + step / 2; tick += step) {
    svg.appendChild(svgNode("line", { x1: left, x2: width - right, y1: y(tick), y2: y(tick), stroke: "#e6e9f0" }));
    svg.appendChild(svgNode("text", { x: left - 6, y: y(tick) + 4, "text-anchor": "end", "font-size": 11, fill: "#6b7385" }, shortNumber(tick)));
  }
  for (const ms of [xMin, (xMin + xMax) / 2, xMax]) {
    svg.appendChild(svgNode("text", { x: x(ms), y: height - bottom + 14, "text-anchor": "middle", "font-size": 11, fill: "#6b7385" }, clockTime(ms)));
  }
  if (options.unit) svg.appendChild(svgNode("text", { x: 4, y: 10, "font-size": 11, fill: "#6b7385" }, options.unit));
  series.forEach((item, index) => {
    const color = PALETTE[index % PALETTE.length];
    if (item.points.length > 0) {
      const path = item.points.map((p, i) => `${i ? "L" : "M"}${x(p[0]).toFixed(1)},${y(p[1]).toFixed(1)}`).join(" ");
      svg.appendChild(svgNode("path", { d: path, fill: "none", stroke: color, "stroke-width": 2, "data-series": item.name }));
    }
    const legendX = left + (index % 4) * ((width - left) / 4), legendY = height - 8;
    if (index < 4) {
      svg.appendChild(svgNode("rect", { x: legendX, y: legendY - 8, width: 10, height: 3, fill: color }));
      svg.appendChild(svgNode("text", { x: legendX + 14, y: legendY - 4, "font-size": 11, fill: "#1d2433" }, item.name));
    }
  });
  return svg;
}

// A bounded history of samples per series, for live charts: keeps the last `limit` points of each series.
class SeriesHistory {
  constructor(limit) { this.limit = limit || 150; this.series = new Map(); }
  add(name, ms, value) {
    const points = this.series.get(name) || [];
    points.push([ms, value]);
    if (points.length > this.limit) points.splice(0, points.length - this.limit);
    this.series.set(name, points);
  }
  list(names) { return (names || [...this.series.keys()]).map((name) => ({ name, points: this.series.get(name) || [] })); }
}

window.RockafkaChart = { lineChart, SeriesHistory, shortNumber };
})();
