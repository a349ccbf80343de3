"""The baseline for bench/http.py: the smallest Flask app, served by gunicorn with the shop's own settings
(deploy/gunicorn.conf.py, the same workers and threads), so the shop's req/s can be read as a share of it."""

from flask import Flask

app = Flask(__name__)


@app.get("/")
def hello():
    return "Hello, World!"


@app.get("/healthz")
def health():
    return {"status": "ok"}
