// Starts Swagger UI on this system's own document (a file, not an inline script, so a strict CSP still allows it).
window.ui = SwaggerUIBundle({url: "/openapi.json", dom_id: "#swagger-ui", deepLinking: true});
