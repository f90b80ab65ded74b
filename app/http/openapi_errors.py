"""The error envelopes of the OpenAPI documents: the platform's PascalCase one, the lower-case one of
the other systems and the mail API's flat ``{error, message}`` (app/http/envelope.py renders each)."""

PASCAL_ERROR = {
    "type": "object", "required": ["Error", "RequestId"],
    "properties": {
        "Error": {"type": "object", "required": ["Type", "Code", "Message"],
                  "properties": {"Type": {"type": "string", "enum": ["Sender", "Receiver"]},
                                 "Code": {"type": "string"}, "Message": {"type": "string"},
                                 "Details": {"type": "object"}}},
        "RequestId": {"type": "string"}},
    "example": {"Error": {"Type": "Sender", "Code": "ValidationError", "Message": "Unknown field 'Foo' in the request "
                          "body.", "Details": {"Foo": "unknown field"}}, "RequestId": "req_0123456789abcdef"},
}
LOWER_ERROR = {
    "type": "object", "required": ["error", "RequestId"],
    "properties": {
        "error": {"type": "object", "required": ["type", "code", "message"],
                  "properties": {"type": {"type": "string", "enum": ["Sender", "Receiver"]},
                                 "code": {"type": "string"}, "message": {"type": "string"},
                                 "details": {"type": "object"}}},
        "RequestId": {"type": "string"}},
    "example": {"error": {"type": "Sender", "code": "InvalidRequest", "message": "The request body is not valid JSON."},
                "RequestId": "req_0123456789abcdef"},
}

FLAT_ERROR = {
    "type": "object", "required": ["error", "message"], "additionalProperties": False,
    "properties": {"error": {"type": "string"}, "message": {"type": "string"}},
    "example": {"error": "CaixaRemetenteInexistente", "message": "No mailbox of this account has the address "
                                                                 "hello@example.com."},
}
# The envelope style of a system (app/http/envelope.py) to the name of its schema in a document.
ENVELOPES = {"lower": "LowerError", "flat": "FlatError"}
