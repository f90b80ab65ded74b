""" Contains all the data models used in inputs/outputs """

from .attachment import Attachment
from .content import Content
from .destination import Destination
from .device_registration import DeviceRegistration
from .device_registration_metadata_type_0 import DeviceRegistrationMetadataType0
from .device_registration_platform import DeviceRegistrationPlatform
from .email_batch import EmailBatch
from .email_body_parts import EmailBodyParts
from .email_message import EmailMessage
from .email_send import EmailSend
from .email_send_headers_type_0 import EmailSendHeadersType0
from .email_send_tags_type_0 import EmailSendTagsType0
from .email_send_variables_type_0 import EmailSendVariablesType0
from .lower_error import LowerError
from .lower_error_error import LowerErrorError
from .lower_error_error_details import LowerErrorErrorDetails
from .lower_error_error_type import LowerErrorErrorType
from .notification import Notification
from .pascal_error import PascalError
from .pascal_error_error import PascalErrorError
from .pascal_error_error_details import PascalErrorErrorDetails
from .pascal_error_error_type import PascalErrorErrorType
from .provider_set import ProviderSet
from .provider_set_secrets import ProviderSetSecrets
from .provider_set_settings import ProviderSetSettings
from .push_send import PushSend
from .push_send_data_type_0 import PushSendDataType0
from .push_send_tags_type_0 import PushSendTagsType0
from .secret_rotation import SecretRotation
from .sms_send import SmsSend
from .sms_send_tags_type_0 import SmsSendTagsType0
from .sms_send_variables_type_0 import SmsSendVariablesType0
from .subject import Subject
from .template_change import TemplateChange
from .template_create import TemplateCreate
from .template_create_channel import TemplateCreateChannel
from .test_event import TestEvent
from .v1_account_account_response_200 import V1AccountAccountResponse200
from .v1_account_usage_response_200 import V1AccountUsageResponse200
from .v1_account_usage_response_200_usage import V1AccountUsageResponse200Usage
from .v1_devices_list_devices_response_200 import V1DevicesListDevicesResponse200
from .v1_devices_list_devices_response_200_devices_item import V1DevicesListDevicesResponse200DevicesItem
from .v1_devices_list_devices_response_200_devices_item_platform import V1DevicesListDevicesResponse200DevicesItemPlatform
from .v1_devices_register_device_response_200 import V1DevicesRegisterDeviceResponse200
from .v1_devices_register_device_response_200_device import V1DevicesRegisterDeviceResponse200Device
from .v1_devices_register_device_response_200_device_platform import V1DevicesRegisterDeviceResponse200DevicePlatform
from .v1_logs_get_log_response_200 import V1LogsGetLogResponse200
from .v1_logs_list_logs_response_200 import V1LogsListLogsResponse200
from .v1_message_cancel_email_response_200 import V1MessageCancelEmailResponse200
from .v1_message_get_email_response_200 import V1MessageGetEmailResponse200
from .v1_message_get_email_response_200_events_item import V1MessageGetEmailResponse200EventsItem
from .v1_message_get_email_response_200_message import V1MessageGetEmailResponse200Message
from .v1_message_get_email_response_200_message_body import V1MessageGetEmailResponse200MessageBody
from .v1_message_list_emails_response_200 import V1MessageListEmailsResponse200
from .v1_message_list_emails_response_200_messages_item import V1MessageListEmailsResponse200MessagesItem
from .v1_message_send_email_batch_response_202 import V1MessageSendEmailBatchResponse202
from .v1_message_send_email_batch_response_202_results_item_type_0 import V1MessageSendEmailBatchResponse202ResultsItemType0
from .v1_message_send_email_batch_response_202_results_item_type_1 import V1MessageSendEmailBatchResponse202ResultsItemType1
from .v1_message_send_email_batch_response_202_results_item_type_1_error import V1MessageSendEmailBatchResponse202ResultsItemType1Error
from .v1_message_send_email_batch_response_202_results_item_type_1_error_details import V1MessageSendEmailBatchResponse202ResultsItemType1ErrorDetails
from .v1_message_send_email_response_202 import V1MessageSendEmailResponse202
from .v1_message_send_push_response_202 import V1MessageSendPushResponse202
from .v1_message_send_sms_response_202 import V1MessageSendSmsResponse202
from .v1_message_send_whatsapp_response_202 import V1MessageSendWhatsappResponse202
from .v1_providers_get_provider_response_200 import V1ProvidersGetProviderResponse200
from .v1_providers_get_provider_response_200_provider import V1ProvidersGetProviderResponse200Provider
from .v1_providers_get_provider_response_200_provider_channel import V1ProvidersGetProviderResponse200ProviderChannel
from .v1_providers_get_provider_response_200_provider_secrets import V1ProvidersGetProviderResponse200ProviderSecrets
from .v1_providers_get_provider_response_200_provider_settings import V1ProvidersGetProviderResponse200ProviderSettings
from .v1_providers_list_providers_response_200 import V1ProvidersListProvidersResponse200
from .v1_providers_list_providers_response_200_catalog_item import V1ProvidersListProvidersResponse200CatalogItem
from .v1_providers_list_providers_response_200_catalog_item_secrets_item import V1ProvidersListProvidersResponse200CatalogItemSecretsItem
from .v1_providers_list_providers_response_200_catalog_item_settings_item import V1ProvidersListProvidersResponse200CatalogItemSettingsItem
from .v1_providers_list_providers_response_200_providers_item import V1ProvidersListProvidersResponse200ProvidersItem
from .v1_providers_list_providers_response_200_providers_item_channel import V1ProvidersListProvidersResponse200ProvidersItemChannel
from .v1_providers_list_providers_response_200_providers_item_secrets import V1ProvidersListProvidersResponse200ProvidersItemSecrets
from .v1_providers_list_providers_response_200_providers_item_settings import V1ProvidersListProvidersResponse200ProvidersItemSettings
from .v1_providers_set_provider_response_200 import V1ProvidersSetProviderResponse200
from .v1_providers_set_provider_response_200_provider import V1ProvidersSetProviderResponse200Provider
from .v1_providers_set_provider_response_200_provider_channel import V1ProvidersSetProviderResponse200ProviderChannel
from .v1_providers_set_provider_response_200_provider_secrets import V1ProvidersSetProviderResponse200ProviderSecrets
from .v1_providers_set_provider_response_200_provider_settings import V1ProvidersSetProviderResponse200ProviderSettings
from .v1_providers_set_provider_response_201 import V1ProvidersSetProviderResponse201
from .v1_providers_set_provider_response_201_provider import V1ProvidersSetProviderResponse201Provider
from .v1_providers_set_provider_response_201_provider_channel import V1ProvidersSetProviderResponse201ProviderChannel
from .v1_providers_set_provider_response_201_provider_secrets import V1ProvidersSetProviderResponse201ProviderSecrets
from .v1_providers_set_provider_response_201_provider_settings import V1ProvidersSetProviderResponse201ProviderSettings
from .v1_senders_senders_response_200 import V1SendersSendersResponse200
from .v1_senders_senders_response_200_domains_item import V1SendersSendersResponse200DomainsItem
from .v1_senders_senders_response_200_domains_item_dns_status import V1SendersSendersResponse200DomainsItemDnsStatus
from .v1_senders_senders_response_200_mailboxes_item import V1SendersSendersResponse200MailboxesItem
from .v1_suppressions_get_suppression_response_200 import V1SuppressionsGetSuppressionResponse200
from .v1_suppressions_get_suppression_response_200_suppression import V1SuppressionsGetSuppressionResponse200Suppression
from .v1_suppressions_list_suppressions_response_200 import V1SuppressionsListSuppressionsResponse200
from .v1_suppressions_list_suppressions_response_200_suppressions_item import V1SuppressionsListSuppressionsResponse200SuppressionsItem
from .v1_templates_create_template_response_201 import V1TemplatesCreateTemplateResponse201
from .v1_templates_create_template_response_201_template import V1TemplatesCreateTemplateResponse201Template
from .v1_templates_create_template_response_201_template_channel import V1TemplatesCreateTemplateResponse201TemplateChannel
from .v1_templates_create_template_response_201_template_status import V1TemplatesCreateTemplateResponse201TemplateStatus
from .v1_templates_get_template_response_200 import V1TemplatesGetTemplateResponse200
from .v1_templates_get_template_response_200_template import V1TemplatesGetTemplateResponse200Template
from .v1_templates_get_template_response_200_template_channel import V1TemplatesGetTemplateResponse200TemplateChannel
from .v1_templates_get_template_response_200_template_status import V1TemplatesGetTemplateResponse200TemplateStatus
from .v1_templates_list_templates_response_200 import V1TemplatesListTemplatesResponse200
from .v1_templates_list_templates_response_200_templates_item import V1TemplatesListTemplatesResponse200TemplatesItem
from .v1_templates_list_templates_response_200_templates_item_channel import V1TemplatesListTemplatesResponse200TemplatesItemChannel
from .v1_templates_list_templates_response_200_templates_item_status import V1TemplatesListTemplatesResponse200TemplatesItemStatus
from .v1_templates_update_template_response_200 import V1TemplatesUpdateTemplateResponse200
from .v1_templates_update_template_response_200_template import V1TemplatesUpdateTemplateResponse200Template
from .v1_templates_update_template_response_200_template_channel import V1TemplatesUpdateTemplateResponse200TemplateChannel
from .v1_templates_update_template_response_200_template_status import V1TemplatesUpdateTemplateResponse200TemplateStatus
from .v1_webhooks_create_webhook_response_201 import V1WebhooksCreateWebhookResponse201
from .v1_webhooks_create_webhook_response_201_webhook import V1WebhooksCreateWebhookResponse201Webhook
from .v1_webhooks_create_webhook_response_201_webhook_health import V1WebhooksCreateWebhookResponse201WebhookHealth
from .v1_webhooks_get_delivery_response_200 import V1WebhooksGetDeliveryResponse200
from .v1_webhooks_get_delivery_response_200_delivery import V1WebhooksGetDeliveryResponse200Delivery
from .v1_webhooks_get_delivery_response_200_delivery_attempts_item import V1WebhooksGetDeliveryResponse200DeliveryAttemptsItem
from .v1_webhooks_get_event_response_200 import V1WebhooksGetEventResponse200
from .v1_webhooks_get_event_response_200_event import V1WebhooksGetEventResponse200Event
from .v1_webhooks_get_webhook_response_200 import V1WebhooksGetWebhookResponse200
from .v1_webhooks_get_webhook_response_200_webhook import V1WebhooksGetWebhookResponse200Webhook
from .v1_webhooks_get_webhook_response_200_webhook_health import V1WebhooksGetWebhookResponse200WebhookHealth
from .v1_webhooks_list_deliveries_response_200 import V1WebhooksListDeliveriesResponse200
from .v1_webhooks_list_deliveries_response_200_deliveries_item import V1WebhooksListDeliveriesResponse200DeliveriesItem
from .v1_webhooks_list_deliveries_response_200_deliveries_item_attempts_item import V1WebhooksListDeliveriesResponse200DeliveriesItemAttemptsItem
from .v1_webhooks_list_events_response_200 import V1WebhooksListEventsResponse200
from .v1_webhooks_list_events_response_200_events_item import V1WebhooksListEventsResponse200EventsItem
from .v1_webhooks_list_webhooks_response_200 import V1WebhooksListWebhooksResponse200
from .v1_webhooks_list_webhooks_response_200_webhooks_item import V1WebhooksListWebhooksResponse200WebhooksItem
from .v1_webhooks_list_webhooks_response_200_webhooks_item_health import V1WebhooksListWebhooksResponse200WebhooksItemHealth
from .v1_webhooks_retry_delivery_response_202 import V1WebhooksRetryDeliveryResponse202
from .v1_webhooks_retry_delivery_response_202_delivery import V1WebhooksRetryDeliveryResponse202Delivery
from .v1_webhooks_retry_delivery_response_202_delivery_attempts_item import V1WebhooksRetryDeliveryResponse202DeliveryAttemptsItem
from .v1_webhooks_rotate_secret_response_200 import V1WebhooksRotateSecretResponse200
from .v1_webhooks_rotate_secret_response_200_webhook import V1WebhooksRotateSecretResponse200Webhook
from .v1_webhooks_rotate_secret_response_200_webhook_health import V1WebhooksRotateSecretResponse200WebhookHealth
from .v1_webhooks_send_test_event_response_202 import V1WebhooksSendTestEventResponse202
from .v1_webhooks_update_webhook_response_200 import V1WebhooksUpdateWebhookResponse200
from .v1_webhooks_update_webhook_response_200_webhook import V1WebhooksUpdateWebhookResponse200Webhook
from .v1_webhooks_update_webhook_response_200_webhook_health import V1WebhooksUpdateWebhookResponse200WebhookHealth
from .webhook_create import WebhookCreate
from .webhook_update import WebhookUpdate
from .whatsapp_send import WhatsappSend
from .whatsapp_send_tags_type_0 import WhatsappSendTagsType0
from .whatsapp_send_variables_type_0 import WhatsappSendVariablesType0

__all__ = (
    "Attachment",
    "Content",
    "Destination",
    "DeviceRegistration",
    "DeviceRegistrationMetadataType0",
    "DeviceRegistrationPlatform",
    "EmailBatch",
    "EmailBodyParts",
    "EmailMessage",
    "EmailSend",
    "EmailSendHeadersType0",
    "EmailSendTagsType0",
    "EmailSendVariablesType0",
    "LowerError",
    "LowerErrorError",
    "LowerErrorErrorDetails",
    "LowerErrorErrorType",
    "Notification",
    "PascalError",
    "PascalErrorError",
    "PascalErrorErrorDetails",
    "PascalErrorErrorType",
    "ProviderSet",
    "ProviderSetSecrets",
    "ProviderSetSettings",
    "PushSend",
    "PushSendDataType0",
    "PushSendTagsType0",
    "SecretRotation",
    "SmsSend",
    "SmsSendTagsType0",
    "SmsSendVariablesType0",
    "Subject",
    "TemplateChange",
    "TemplateCreate",
    "TemplateCreateChannel",
    "TestEvent",
    "V1AccountAccountResponse200",
    "V1AccountUsageResponse200",
    "V1AccountUsageResponse200Usage",
    "V1DevicesListDevicesResponse200",
    "V1DevicesListDevicesResponse200DevicesItem",
    "V1DevicesListDevicesResponse200DevicesItemPlatform",
    "V1DevicesRegisterDeviceResponse200",
    "V1DevicesRegisterDeviceResponse200Device",
    "V1DevicesRegisterDeviceResponse200DevicePlatform",
    "V1LogsGetLogResponse200",
    "V1LogsListLogsResponse200",
    "V1MessageCancelEmailResponse200",
    "V1MessageGetEmailResponse200",
    "V1MessageGetEmailResponse200EventsItem",
    "V1MessageGetEmailResponse200Message",
    "V1MessageGetEmailResponse200MessageBody",
    "V1MessageListEmailsResponse200",
    "V1MessageListEmailsResponse200MessagesItem",
    "V1MessageSendEmailBatchResponse202",
    "V1MessageSendEmailBatchResponse202ResultsItemType0",
    "V1MessageSendEmailBatchResponse202ResultsItemType1",
    "V1MessageSendEmailBatchResponse202ResultsItemType1Error",
    "V1MessageSendEmailBatchResponse202ResultsItemType1ErrorDetails",
    "V1MessageSendEmailResponse202",
    "V1MessageSendPushResponse202",
    "V1MessageSendSmsResponse202",
    "V1MessageSendWhatsappResponse202",
    "V1ProvidersGetProviderResponse200",
    "V1ProvidersGetProviderResponse200Provider",
    "V1ProvidersGetProviderResponse200ProviderChannel",
    "V1ProvidersGetProviderResponse200ProviderSecrets",
    "V1ProvidersGetProviderResponse200ProviderSettings",
    "V1ProvidersListProvidersResponse200",
    "V1ProvidersListProvidersResponse200CatalogItem",
    "V1ProvidersListProvidersResponse200CatalogItemSecretsItem",
    "V1ProvidersListProvidersResponse200CatalogItemSettingsItem",
    "V1ProvidersListProvidersResponse200ProvidersItem",
    "V1ProvidersListProvidersResponse200ProvidersItemChannel",
    "V1ProvidersListProvidersResponse200ProvidersItemSecrets",
    "V1ProvidersListProvidersResponse200ProvidersItemSettings",
    "V1ProvidersSetProviderResponse200",
    "V1ProvidersSetProviderResponse200Provider",
    "V1ProvidersSetProviderResponse200ProviderChannel",
    "V1ProvidersSetProviderResponse200ProviderSecrets",
    "V1ProvidersSetProviderResponse200ProviderSettings",
    "V1ProvidersSetProviderResponse201",
    "V1ProvidersSetProviderResponse201Provider",
    "V1ProvidersSetProviderResponse201ProviderChannel",
    "V1ProvidersSetProviderResponse201ProviderSecrets",
    "V1ProvidersSetProviderResponse201ProviderSettings",
    "V1SendersSendersResponse200",
    "V1SendersSendersResponse200DomainsItem",
    "V1SendersSendersResponse200DomainsItemDnsStatus",
    "V1SendersSendersResponse200MailboxesItem",
    "V1SuppressionsGetSuppressionResponse200",
    "V1SuppressionsGetSuppressionResponse200Suppression",
    "V1SuppressionsListSuppressionsResponse200",
    "V1SuppressionsListSuppressionsResponse200SuppressionsItem",
    "V1TemplatesCreateTemplateResponse201",
    "V1TemplatesCreateTemplateResponse201Template",
    "V1TemplatesCreateTemplateResponse201TemplateChannel",
    "V1TemplatesCreateTemplateResponse201TemplateStatus",
    "V1TemplatesGetTemplateResponse200",
    "V1TemplatesGetTemplateResponse200Template",
    "V1TemplatesGetTemplateResponse200TemplateChannel",
    "V1TemplatesGetTemplateResponse200TemplateStatus",
    "V1TemplatesListTemplatesResponse200",
    "V1TemplatesListTemplatesResponse200TemplatesItem",
    "V1TemplatesListTemplatesResponse200TemplatesItemChannel",
    "V1TemplatesListTemplatesResponse200TemplatesItemStatus",
    "V1TemplatesUpdateTemplateResponse200",
    "V1TemplatesUpdateTemplateResponse200Template",
    "V1TemplatesUpdateTemplateResponse200TemplateChannel",
    "V1TemplatesUpdateTemplateResponse200TemplateStatus",
    "V1WebhooksCreateWebhookResponse201",
    "V1WebhooksCreateWebhookResponse201Webhook",
    "V1WebhooksCreateWebhookResponse201WebhookHealth",
    "V1WebhooksGetDeliveryResponse200",
    "V1WebhooksGetDeliveryResponse200Delivery",
    "V1WebhooksGetDeliveryResponse200DeliveryAttemptsItem",
    "V1WebhooksGetEventResponse200",
    "V1WebhooksGetEventResponse200Event",
    "V1WebhooksGetWebhookResponse200",
    "V1WebhooksGetWebhookResponse200Webhook",
    "V1WebhooksGetWebhookResponse200WebhookHealth",
    "V1WebhooksListDeliveriesResponse200",
    "V1WebhooksListDeliveriesResponse200DeliveriesItem",
    "V1WebhooksListDeliveriesResponse200DeliveriesItemAttemptsItem",
    "V1WebhooksListEventsResponse200",
    "V1WebhooksListEventsResponse200EventsItem",
    "V1WebhooksListWebhooksResponse200",
    "V1WebhooksListWebhooksResponse200WebhooksItem",
    "V1WebhooksListWebhooksResponse200WebhooksItemHealth",
    "V1WebhooksRetryDeliveryResponse202",
    "V1WebhooksRetryDeliveryResponse202Delivery",
    "V1WebhooksRetryDeliveryResponse202DeliveryAttemptsItem",
    "V1WebhooksRotateSecretResponse200",
    "V1WebhooksRotateSecretResponse200Webhook",
    "V1WebhooksRotateSecretResponse200WebhookHealth",
    "V1WebhooksSendTestEventResponse202",
    "V1WebhooksUpdateWebhookResponse200",
    "V1WebhooksUpdateWebhookResponse200Webhook",
    "V1WebhooksUpdateWebhookResponse200WebhookHealth",
    "WebhookCreate",
    "WebhookUpdate",
    "WhatsappSend",
    "WhatsappSendTagsType0",
    "WhatsappSendVariablesType0",
)
