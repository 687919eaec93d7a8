from base64 import urlsafe_b64encode

from cryptography.hazmat.primitives import serialization
from django.core.management.base import BaseCommand
from py_vapid import Vapid


def _b64(raw: bytes) -> str:
    return urlsafe_b64encode(raw).rstrip(b"=").decode()


class Command(BaseCommand):
    help = "Make a VAPID key pair for Web Push and print it as the two environment variables to set."

    def handle(self, *args, **options) -> None:
        vapid = Vapid()
        vapid.generate_keys()
        private = vapid.private_key.private_numbers().private_value.to_bytes(32, "big")
        public = vapid.public_key.public_bytes(serialization.Encoding.X962,
                                               serialization.PublicFormat.UncompressedPoint)
        self.stdout.write(f"VAPID_PUBLIC_KEY={_b64(public)}\nVAPID_PRIVATE_KEY={_b64(private)}")
