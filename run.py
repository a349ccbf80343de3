"""Development server: `python run.py` (the Makefile's `make run` prepares the database first)."""

from insightshop import create_app

app = create_app()

if __name__ == "__main__":
    app.run(host="127.0.0.1", port=app.config["PORT"], debug=app.config["APP_ENV"] == "development")
