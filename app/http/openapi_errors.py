"""The error envelopes of the OpenAPI documents: the platform's PascalCase one, the lower-case one of
the other systems and the mail API's flat ``{error, message}`` (app/http/envelope.py renders each)."""

_TYPE = "`Sender` for a 4xx (the request is at fault), `Receiver` for a 5xx (Herald or a system it calls)."
_CODE = "The error's code, for programs (`ValidationError`, `NotFound`, `Throttling` ...)."
_MESSAGE = "What went wrong, in English, for people; it may change."
_DETAILS = "More about it: for a refused body, each field's name and its reason."
_REQUEST_ID = "The request's id (req_...), also in the X-Request-Id header."

PASCAL_ERROR = {
    "type": "object", "required": ["Error", "RequestId"],
    "properties": {
        "Error": {"type": "object", "required": ["Type", "Code", "Message"], "description": "What went wrong.",
                  "properties": {"Type": {"type": "string", "enum": ["Sender", "Receiver"], "description": _TYPE},
                                 "Code": {"type": "string", "description": _CODE},
                                 "Message": {"type": "string", "description": _MESSAGE},
                                 "Details": {"type": "object", "description": _DETAILS}}},
        "RequestId": {"type": "string", "description": _REQUEST_ID}},
    "example": {"Error": {"Type": "Sender", "Code": "ValidationError", "Message": "Unknown field 'Foo' in the request "
                          "body.", "Details": {"Foo": "unknown field"}}, "RequestId": "req_0123456789abcdef"},
}
LOWER_ERROR = {
    "type": "object", "required": ["error", "RequestId"],
    "properties": {
        "error": {"type": "object", "required": ["type", "code", "message"], "description": "What went wrong.",
                  "properties": {"type": {"type": "string", "enum": ["Sender", "Receiver"], "description": _TYPE},
                                 "code": {"type": "string", "description": _CODE},
                                 "message": {"type": "string", "description": _MESSAGE},
                                 "details": {"type": "object", "description": _DETAILS}}},
        "RequestId": {"type": "string", "description": _REQUEST_ID}},
    "example": {"error": {"type": "Sender", "code": "InvalidRequest", "message": "The request body is not valid JSON."},
                "RequestId": "req_0123456789abcdef"},
}

FLAT_ERROR = {
    "type": "object", "required": ["error", "message"], "additionalProperties": False,
    "properties": {"error": {"type": "string", "description": _CODE},
                   "message": {"type": "string", "description": _MESSAGE}},
    "example": {"error": "CaixaRemetenteInexistente", "message": "No mailbox of this account has the address "
                                                                 "hello@example.com."},
}
# The envelope style of a system (app/http/envelope.py) to the name of its schema in a document.
ENVELOPES = {"lower": "LowerError", "flat": "FlatError"}
