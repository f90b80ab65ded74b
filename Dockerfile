# One image for every role; the command picks the role:
#   herald serve platform|identity|crm|pages|runtime    herald worker    herald scheduler    herald migrate
FROM python:3.11-slim AS build
WORKDIR /src
COPY pyproject.toml setup.cfg README.md ./
COPY app ./app
COPY models ./models
COPY tasks ./tasks
COPY schedules ./schedules
COPY providers ./providers
COPY herald ./herald
RUN pip wheel --no-cache-dir --wheel-dir /wheels .

FROM python:3.11-slim
ARG HERALD_VERSION=dev
ARG HERALD_COMMIT=dev
ENV HERALD_VERSION=$HERALD_VERSION HERALD_COMMIT=$HERALD_COMMIT \
    PYTHONUNBUFFERED=1 HERALD_HOST=0.0.0.0 HERALD_ENV=production HERALD_VAR_DIR=/var/lib/herald
RUN useradd --system --uid 10001 --home-dir /var/lib/herald --create-home herald
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir /wheels/*.whl && rm -rf /wheels
USER herald
WORKDIR /var/lib/herald
EXPOSE 8000 8001 8002 8003 8004 9191
ENTRYPOINT ["herald"]
CMD ["serve", "platform"]
