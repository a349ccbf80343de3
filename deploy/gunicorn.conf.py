"""gunicorn settings for InsightShop (`make run`, and every app server in deploy/). Environment:
HOST, PORT, WEB_CONCURRENCY (worker processes, default 2 x cores), WEB_THREADS (threads per worker, default 4),
WEB_TIMEOUT (seconds), PROMETHEUS_MULTIPROC_DIR (metrics shared by the workers)."""

import multiprocessing
import os
import shutil

bind = f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '5000')}"
workers = int(os.environ.get("WEB_CONCURRENCY") or 2 * multiprocessing.cpu_count())
# Threads: a chat turn waiting on Claude or a payment provider must not hold a whole process.
worker_class = "gthread"
threads = int(os.environ.get("WEB_THREADS") or 4)
timeout = int(os.environ.get("WEB_TIMEOUT") or 60)
graceful_timeout = 20
keepalive = 5
# A search of 500 characters (the API's limit) is up to 6 KB once percent-encoded: gunicorn's 4 KB default request
# line would refuse it with its own 414 page. 8190 is gunicorn's maximum, matching nginx's 8 KB header buffers.
limit_request_line = 8190
# The app writes its own access line (JSON, with the request id); gunicorn's own errors go to stderr.
accesslog = None
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")
# Only a proxy on this machine may tell gunicorn the original scheme (X-Forwarded-Proto).
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1,::1")
proc_name = "insightshop"
# gunicornc's control socket sits at one path per user: several app servers on one machine would collide.
control_socket_disable = True


def on_starting(server):
    """A fresh directory for the workers' shared Prometheus metrics (stale files would add old counts)."""
    directory = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if directory:
        shutil.rmtree(directory, ignore_errors=True)
        os.makedirs(directory, exist_ok=True)


def child_exit(server, worker):
    """A dead worker's live gauges must not be summed any more."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from insightshop.observability.metrics import mark_process_dead

        mark_process_dead(worker.pid)


def post_worker_init(worker):
    """/mcp keeps at least one of this worker's threads free for the pages: it is told the real thread count
    (--threads or GUNICORN_CMD_ARGS may differ from WEB_THREADS, which MCP_MAX_CONCURRENT's default follows)."""
    from insightshop.mcp.http_guard import set_worker_threads

    set_worker_threads(worker.cfg.threads)
