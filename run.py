"""Development server: `python run.py` (the Makefile's `make run` prepares the database first)."""

from insightshop import create_app

app = create_app()

if __name__ == "__main__":
    # Never the Werkzeug debugger: its console runs any code for whoever reaches the port. The reloader stays.
    app.run(host="127.0.0.1", port=app.config["PORT"], debug=False, use_debugger=False,
            use_reloader=app.config["APP_ENV"] == "development")  # fmt: skip
