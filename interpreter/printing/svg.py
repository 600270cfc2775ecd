"""A face as an SVG document, built with ElementTree so every name and text is escaped: card names
come from untrusted files and must never become markup."""
from __future__ import annotations

import base64
import re
import xml.etree.ElementTree as ET

from .faces import FONT_FAMILY, LINE, PT, Face, Picture, Rect, TextBlock

__all__ = ["face_svg"]

_NS = "http://www.w3.org/2000/svg"
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_ANCHOR = {"left": "start", "center": "middle", "right": "end"}


def _n(v: float) -> str:
    return f"{v:.2f}".rstrip("0").rstrip(".")


def _clean(text: str) -> str:
    """Characters XML 1.0 cannot hold at all (escaping or not) become U+FFFD."""
    return _NOT_XML.sub("\ufffd", text)


def face_svg(face: Face) -> str:
    """The SVG text of one face, sized in mm (prints at its real size)."""
    ET.register_namespace("", _NS)
    root = ET.Element(f"{{{_NS}}}svg", {"width": f"{_n(face.width)}mm", "height": f"{_n(face.height)}mm",
                                          "viewBox": f"0 0 {_n(face.width)} {_n(face.height)}", "version": "1.1"})
    ET.SubElement(root, f"{{{_NS}}}title").text = _clean(face.name)
    for item in face.items:
        if isinstance(item, Rect):
            attrs = {"x": _n(item.x), "y": _n(item.y), "width": _n(item.w), "height": _n(item.h),
                     "fill": item.fill or "none"}
            if item.radius:
                attrs["rx"] = _n(item.radius)
            if item.stroke and item.stroke_width:
                attrs |= {"stroke": item.stroke, "stroke-width": _n(item.stroke_width)}
            ET.SubElement(root, f"{{{_NS}}}rect", attrs)
        elif isinstance(item, TextBlock):
            size = item.size * PT
            x = {"left": item.x, "center": item.x + item.w / 2, "right": item.x + item.w}[item.align]
            text = ET.SubElement(root, f"{{{_NS}}}text", {
                "font-family": f"{FONT_FAMILY}, Verdana, sans-serif", "font-size": _n(size),
                "font-weight": "bold" if item.bold else "normal", "fill": item.color,
                "text-anchor": _ANCHOR[item.align]})
            for i, line in enumerate(item.lines):
                # baseline of line i: its top plus the ascent (~0.93 em for DejaVu Sans)
                span = ET.SubElement(text, f"{{{_NS}}}tspan", {"x": _n(x), "y": _n(item.y + (i * LINE + 0.93) * size)})
                span.text = _clean(line)
        elif isinstance(item, Picture):
            if item.data is None:
                ET.SubElement(root, f"{{{_NS}}}rect", {"x": _n(item.x), "y": _n(item.y), "width": _n(item.w),
                                                        "height": _n(item.h), "fill": "#dddddd", "stroke": "#999999",
                                                        "stroke-width": "0.3", "stroke-dasharray": "1 1"})
                label = ET.SubElement(root, f"{{{_NS}}}text", {
                    "x": _n(item.x + item.w / 2), "y": _n(item.y + item.h / 2), "font-size": _n(7 * PT),
                    "font-family": f"{FONT_FAMILY}, sans-serif", "fill": "#777777", "text-anchor": "middle"})
                label.text = item.label
            else:
                href = f"data:image/{item.fmt};base64,{base64.b64encode(item.data).decode('ascii')}"
                ET.SubElement(root, f"{{{_NS}}}image", {"x": _n(item.x), "y": _n(item.y), "width": _n(item.w),
                                                         "height": _n(item.h), "href": href,
                                                         "preserveAspectRatio": "xMidYMid meet"})
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"
