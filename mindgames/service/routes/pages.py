"""The web page (``/``, ``/static``) and the API's own documentation (``/docs``), from local
files: both work offline (no CDN)."""

from __future__ import annotations

import importlib.util
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

from ..errors import error


def swagger_assets() -> Path | None:
    """The folder of Swagger UI's files shipped by the fastapi-offline package, if installed."""
    try:
        spec = importlib.util.find_spec("fastapi_offline")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin:
        return None
    folder = Path(spec.origin).parent / "static"
    return folder if (folder / "swagger-ui-bundle.js").exists() else None


def install(app: FastAPI) -> None:
    """Mount ``/docs`` (with its assets), ``/`` and ``/static`` on ``app``."""
    docs_assets = swagger_assets()
    if docs_assets is not None:
        app.mount("/docs-assets", StaticFiles(directory=str(docs_assets)), name="docs-assets")

    @app.get("/docs", include_in_schema=False)
    async def docs() -> Any:
        if docs_assets is None:
            return error(
                503,
                "the interactive docs need the package fastapi-offline "
                "(pip install fastapi-offline); /openapi.json is served anyway",
            )
        return get_swagger_ui_html(
            openapi_url="/openapi.json",
            title="mindgames API",
            swagger_js_url="/docs-assets/swagger-ui-bundle.js",
            swagger_css_url="/docs-assets/swagger-ui.css",
            swagger_favicon_url="/docs-assets/favicon.png",
        )

    static = resources.files("mindgames.service") / "static"

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(str(static / "index.html"), media_type="text/html")

    app.mount("/static", StaticFiles(directory=str(static)), name="static")
