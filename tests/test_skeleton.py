from django.test import Client


def test_index_page_renders(db):
    response = Client().get("/")
    assert response.status_code == 200
    assert "上海麻将" in response.content.decode()
