"""Fills a moto S3 server for the S3 tests and writes what they need to know as JSON.

Usage: moto_fixture.py ENDPOINT FIXTURES_DIR OUT.json

The server must run with INITIAL_NO_AUTH_ACTION_COUNT set (see scripts/with-moto.sh): the setup's
own calls go unchecked, every later request must carry a valid Signature Version 4 of a key that
the IAM policy below lets read `magpie-photos` and nothing else.
"""
import json
import sys

import boto3

endpoint, fixtures, out = sys.argv[1:4]
setup = dict(endpoint_url=endpoint, region_name="us-east-1",
             aws_access_key_id="setup", aws_secret_access_key="setup")
iam = boto3.client("iam", **setup)
s3 = boto3.client("s3", **setup)

iam.create_user(UserName="magpie")
iam.put_user_policy(UserName="magpie", PolicyName="read-photos", PolicyDocument=json.dumps({
    "Version": "2012-10-17",
    "Statement": [{"Effect": "Allow", "Action": ["s3:GetObject", "s3:GetObjectVersion"],
                   "Resource": "arn:aws:s3:::magpie-photos/*"}]}))
key = iam.create_access_key(UserName="magpie")["AccessKey"]

s3.create_bucket(Bucket="magpie-photos")
s3.put_bucket_versioning(Bucket="magpie-photos", VersioningConfiguration={"Status": "Enabled"})
s3.create_bucket(Bucket="magpie-private")


def read(name):
    with open(f"{fixtures}/{name}", "rb") as f:
        return f.read()


first, second = read("bmp-rgb24.ref.png"), read("tiff-palette.ref.png")
s3.put_object(Bucket="magpie-photos", Key="albums/a cat+1.png", Body=first, ContentType="image/png")
v1 = s3.put_object(Bucket="magpie-photos", Key="versioned.png", Body=first)["VersionId"]
v2 = s3.put_object(Bucket="magpie-photos", Key="versioned.png", Body=second)["VersionId"]
s3.put_object(Bucket="magpie-photos", Key="big.bin", Body=bytes(1 << 20))
s3.put_object(Bucket="magpie-private", Key="secret.png", Body=first)

with open(out, "w") as f:
    json.dump({"endpoint": endpoint, "accessKeyID": key["AccessKeyId"],
               "secretAccessKey": key["SecretAccessKey"], "bucket": "magpie-photos",
               "versions": [v1, v2], "first": "bmp-rgb24.ref.png", "second": "tiff-palette.ref.png"}, f)
