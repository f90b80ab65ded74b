# One image for every role; the command picks the role (docker-compose.yml runs each):
#   herald serve platform|identity|crm|pages|runtime|console    herald worker    herald scheduler
#   herald consume    herald migrate
FROM python:3.11-slim AS build
WORKDIR /src
# The build context of the wheel (tests/herald/test_wheel.py builds from these same COPY lines).
COPY pyproject.toml setup.cfg README.md ./
COPY app ./app
COPY models ./models
COPY tasks ./tasks
COPY schedules ./schedules
COPY providers ./providers
COPY herald ./herald
COPY kit ./kit
# Herald's wheel and its dependencies' wheels, without the `embedded` extra: the image runs against
# real PostgreSQL and Redis servers (DATABASE_URL, REDIS_URL), never the embedded ones of `herald up`.
RUN pip wheel --no-cache-dir --wheel-dir /wheels .

FROM python:3.11-slim
# Empty: /version then reports the installed package's version (herald.__version__).
ARG HERALD_VERSION=
ARG HERALD_COMMIT=dev
ENV HERALD_VERSION=$HERALD_VERSION HERALD_COMMIT=$HERALD_COMMIT \
    PYTHONUNBUFFERED=1 HERALD_HOST=0.0.0.0 HERALD_ENV=production HERALD_VAR_DIR=/var/lib/herald
RUN useradd --system --uid 10001 --home-dir /var/lib/herald --create-home herald
COPY --from=build /wheels /wheels
# Only the wheels built above (--no-index): the image holds exactly what the build stage resolved.
RUN pip install --no-cache-dir --no-index --find-links /wheels herald && rm -rf /wheels
USER herald
WORKDIR /var/lib/herald
# The pages system's media folder (HERALD_VAR_DIR/media), made by the herald user so that a volume
# mounted on it (docker-compose.yml) starts out writable by it.
RUN mkdir -p /var/lib/herald/media
EXPOSE 8000 8001 8002 8003 8004 8005 8006 9191 2525 2587 2465
ENTRYPOINT ["herald"]
CMD ["serve", "platform"]
