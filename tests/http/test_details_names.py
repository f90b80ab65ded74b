"""``Error.Details`` names a field as the request spells it, also for rules over several fields
(model validators), in every system's bodies (the HTTP case: tests/platform/test_message_send.py)."""

from __future__ import annotations

import pytest

from app.http import errors
from app.http.bodies import validate
from app.pages.experiment.schemas import VariantDelta
from app.pages.form.schemas import FormCreate
from app.pages.page.schemas import ImageBlock
from app.pages.routing.schemas import RoutingPut
from app.platform.message.schemas import EmailSend, SmsSend, WhatsappSend
from app.runtime.form.schemas import LeadIn

TEXT = {"Name": "a", "Type": "text", "Label": "A"}


@pytest.mark.parametrize("model, data, field", [
    (SmsSend, {"To": ["+14155550123"]}, "Body"),
    (WhatsappSend, {"To": ["+14155550123"], "Template": "otp", "Body": "x"}, "Body"),
    (EmailSend, {"Source": "a@b.example", "Destination": {"ToAddresses": ["c@d.example"]}}, "Message"),
    (RoutingPut, {"Destinations": [{"Url": "https://a.example", "Weight": 50}]}, "Destinations"),
    (FormCreate, {"Name": "f", "Fields": [{**TEXT, "Type": "select"}]}, "Fields.0.Options"),
    (FormCreate, {"Name": "f", "Fields": [TEXT, TEXT]}, "Fields"),
    (VariantDelta, {"VariantId": "var_1"}, "Views"),
    (LeadIn, {}, "Email"),
    (ImageBlock, {"Type": "image", "Alt": "x"}, "MediaId"),
])
def test_a_rule_over_several_fields_names_its_field(model, data, field):
    with pytest.raises(errors.ValidationError) as refused:
        validate(data, model)
    assert list(refused.value.details) == [field]
